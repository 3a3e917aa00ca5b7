/**
 * Which `git` invocations only read. Global options that can run programs
 * (`-c core.pager=…`, `-c alias.x=!…`, `--exec-path`) ask; so do subcommands
 * outside the read-only set, and read-only subcommands with writing options
 * (`git diff --output=f`, `git branch new-name`).
 */
import { type Arg, type CommandRule, dangerousFlag, operandsOf, unsafeArguments } from './arguments.js';

/** Options every git subcommand may take that write a file or open a program. */
const COMMON: CommandRule = { long: ['--output', '--open-files-in-pager', '--ext-diff'] };

const READ_ONLY_SUBCOMMANDS: Record<string, CommandRule> = {
  status: COMMON,
  log: COMMON,
  show: COMMON,
  diff: COMMON,
  'diff-tree': COMMON,
  'diff-index': COMMON,
  'diff-files': COMMON,
  blame: COMMON,
  annotate: COMMON,
  shortlog: COMMON,
  describe: COMMON,
  'rev-parse': COMMON,
  'rev-list': COMMON,
  'ls-files': COMMON,
  'ls-tree': COMMON,
  'ls-remote': { long: ['--upload-pack'] },
  'cat-file': COMMON,
  'show-ref': COMMON,
  'for-each-ref': COMMON,
  'merge-base': COMMON,
  'name-rev': COMMON,
  'count-objects': COMMON,
  'check-ignore': COMMON,
  'check-attr': COMMON,
  cherry: COMMON,
  whatchanged: COMMON,
  version: COMMON,
  grep: { short: 'O', long: ['--open-files-in-pager'] },
  branch: {
    short: 'dDmMcCfut',
    long: [
      '--delete',
      '--move',
      '--copy',
      '--force',
      '--set-upstream-to',
      '--unset-upstream',
      '--edit-description',
      '--track',
      '--create-reflog',
    ],
    check: listingOnly('branch', ['--list', '-l', '--show-current', '--contains', '--merged', '--no-merged']),
  },
  tag: {
    short: 'dasfmFue',
    long: ['--delete', '--annotate', '--sign', '--force', '--message', '--file', '--local-user', '--edit'],
    check: listingOnly('tag', ['--list', '-l', '-v', '--verify', '--contains', '--merged', '--no-merged']),
  },
  remote: { check: (args) => subcommandIn('remote', args, ['show', 'get-url'], true) },
  stash: { check: (args) => subcommandIn('stash', args, ['list', 'show'], false) },
  reflog: { check: (args) => subcommandIn('reflog', args, ['show', 'exists'], true) },
  worktree: { check: (args) => subcommandIn('worktree', args, ['list'], false) },
  config: { check: configReadsOnly },
};

/**
 * Why a git invocation is not read-only, or `undefined`.
 *
 * @example
 * ```ts
 * unsafeGit([{ value: 'status', glob: false }]); // undefined
 * unsafeGit([{ value: 'push', glob: false }]); // 'git push is not a read-only git command'
 * ```
 */
export function unsafeGit(args: readonly Arg[]): string | undefined {
  let index = 0;
  // Global options, before the subcommand.
  while (index < args.length && args[index]!.value.startsWith('-')) {
    const option = args[index]!.value;
    if (args[index]!.glob) return `git: the glob ${option} could expand to an option`;
    if (option === '-C' || option === '--git-dir' || option === '--work-tree' || option === '--namespace') {
      index += 2;
      continue;
    }
    if (
      /^--(git-dir|work-tree|namespace)=/.test(option) ||
      ['--no-pager', '-P', '--no-optional-locks', '--bare', '--literal-pathspecs', '--no-replace-objects'].includes(
        option,
      )
    ) {
      index++;
      continue;
    }
    // -c/--config-env can set core.pager, core.sshCommand or a "!command" alias.
    return `git ${option} can change configuration or run programs`;
  }
  const sub = args[index];
  if (!sub) return undefined; // `git` alone prints help
  if (sub.glob) return `git: the glob ${sub.value} could expand to any subcommand`;
  const rule = READ_ONLY_SUBCOMMANDS[sub.value];
  if (!rule) return `git ${sub.value} is not a read-only git command`;
  return unsafeArguments(`git ${sub.value}`, rule, args.slice(index + 1));
}

/** `git branch`/`git tag` list when they have no operands, or when asked to list. */
function listingOnly(sub: string, listFlags: readonly string[]): (args: readonly Arg[]) => string | undefined {
  return (args) => {
    const listing = args.some((arg) =>
      listFlags.some((flag) => arg.value === flag || arg.value.startsWith(`${flag}=`)),
    );
    if (listing) return undefined;
    const operands = operandsOf(args);
    return operands.length > 0 ? `git ${sub} ${operands[0]!.value} creates or changes a ${sub}` : undefined;
  };
}

function subcommandIn(
  sub: string,
  args: readonly Arg[],
  allowed: readonly string[],
  bareAllowed: boolean,
): string | undefined {
  const operands = operandsOf(args);
  const first = operands[0];
  if (!first) return bareAllowed ? undefined : `git ${sub} without a subcommand changes something`;
  if (allowed.includes(first.value)) return undefined;
  return `git ${sub} ${first.value} is not read-only`;
}

const CONFIG_READERS = ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', '--get-color'];
const CONFIG_WRITERS: CommandRule = {
  short: 'e',
  long: ['--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section', '--edit'],
};

function configReadsOnly(args: readonly Arg[]): string | undefined {
  for (const arg of args) {
    if (!arg.value.startsWith('-') || CONFIG_READERS.includes(arg.value)) continue;
    const bad = dangerousFlag(arg.value, CONFIG_WRITERS);
    if (bad) return `git config ${bad} changes configuration`;
  }
  const reads = args.some((arg) => CONFIG_READERS.includes(arg.value));
  const operands = operandsOf(args);
  if (!reads && operands[0]?.value !== 'get' && operands[0]?.value !== 'list') {
    return 'git config without --get/--list (or the get/list subcommands) sets a value';
  }
  if (reads && operands.length > 2) return 'git config with more operands than name and pattern sets a value';
  return undefined;
}
