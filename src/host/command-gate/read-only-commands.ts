/**
 * The commands the gate knows to be read-only, each with what would make a
 * particular invocation write or run something. A command not listed here
 * asks. Interpreters and command runners are named so the reason can say
 * "pipes into an interpreter".
 */
import { type Arg, type CommandRule, operandsOf } from './arguments.js';
import { unsafeGit } from './git-rules.js';
import { unsafeSedScript } from './sed-script.js';

const NONE: CommandRule = {};

/** Read-only commands and the options or operands that would make them write or execute. */
export const READ_ONLY_COMMANDS: Readonly<Record<string, CommandRule>> = {
  cat: NONE,
  head: NONE,
  tail: NONE,
  wc: NONE,
  nl: NONE,
  tac: NONE,
  rev: NONE,
  cut: NONE,
  tr: NONE,
  fold: NONE,
  expand: NONE,
  unexpand: NONE,
  paste: NONE,
  join: NONE,
  comm: NONE,
  column: NONE,
  od: NONE,
  hexdump: NONE,
  strings: NONE,
  md5sum: NONE,
  sha1sum: NONE,
  sha256sum: NONE,
  sha512sum: NONE,
  b2sum: NONE,
  cksum: NONE,
  base64: NONE,
  grep: NONE,
  egrep: NONE,
  fgrep: NONE,
  ls: NONE,
  dir: NONE,
  pwd: NONE,
  cd: NONE,
  echo: NONE,
  printf: { short: 'v' },
  true: NONE,
  false: NONE,
  test: NONE,
  '[': NONE,
  seq: NONE,
  stat: NONE,
  du: NONE,
  df: NONE,
  which: NONE,
  type: NONE,
  whoami: NONE,
  id: NONE,
  groups: NONE,
  uname: NONE,
  uptime: NONE,
  nproc: NONE,
  basename: NONE,
  dirname: NONE,
  realpath: NONE,
  readlink: NONE,
  diff: NONE,
  cmp: NONE,
  jq: NONE,
  printenv: NONE,
  ps: NONE,
  sleep: NONE,
  file: { short: 'C', long: ['--compile'] },
  tree: { short: 'o' },
  sort: { short: 'o', long: ['--output', '--compress-program'] },
  uniq: { maxOperands: 1 },
  find: { exact: ['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls'] },
  fd: { short: 'xX', long: ['--exec', '--exec-batch'] },
  rg: { long: ['--pre'] },
  date: { short: 's', long: ['--set'], check: dateOperands },
  hostname: { short: 'Fb', long: ['--file', '--boot'], maxOperands: 0 },
  git: { check: unsafeGit },
  sed: { check: unsafeSed },
};

/**
 * Programs that run code they are given (on the command line or on stdin).
 * Piping into one of these is never a read, whatever came before.
 */
export const INTERPRETERS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'fish',
  'csh',
  'tcsh',
  'python',
  'python2',
  'python3',
  'node',
  'nodejs',
  'deno',
  'bun',
  'perl',
  'ruby',
  'php',
  'lua',
  'tclsh',
  'Rscript',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'pwsh',
  'osascript',
  'eval',
  'exec',
  'source',
  '.',
  'xargs',
  'parallel',
  'sudo',
  'su',
  'doas',
]);

/** Prefix assignments that only change formatting, never what a command does to the world. */
export const SAFE_ENV_PREFIXES: ReadonlySet<string> = new Set([
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_COLLATE',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LC_NUMERIC',
  'LC_TIME',
  'TZ',
  'NO_COLOR',
  'COLUMNS',
  'LINES',
]);

function dateOperands(args: readonly Arg[]): string | undefined {
  const setting = operandsOf(args).find((arg) => !arg.value.startsWith('+'));
  return setting ? `date ${setting.value} sets the clock` : undefined;
}

/** sed reads unless `-i` edits in place, a script comes from a file, or a script writes or executes. */
function unsafeSed(args: readonly Arg[]): string | undefined {
  const scripts: string[] = [];
  const operands: string[] = [];
  let afterDoubleDash = false;
  for (let i = 0; i < args.length; i++) {
    const { value, glob } = args[i]!;
    if (glob && !afterDoubleDash) return `sed: the glob ${value} could expand to an option such as -i`;
    if (afterDoubleDash || value === '-' || !value.startsWith('-')) {
      operands.push(value);
      continue;
    }
    if (value === '--') {
      afterDoubleDash = true;
      continue;
    }
    if (value.startsWith('--')) {
      const [name, inline] = splitLong(value);
      if ('--in-place'.startsWith(name) && name.length > 2) return 'sed --in-place edits files';
      if ('--file'.startsWith(name) && name.length > 2) return 'sed --file runs a script the gate cannot see';
      if ('--expression'.startsWith(name) && name.length > 3) {
        const script = inline ?? args[++i]?.value;
        if (script === undefined) return 'sed --expression without a script';
        scripts.push(script);
      }
      continue;
    }
    // A short-option cluster: -n, -E, -r, -s, -u, -z are flags; -e and -l take a value; -i and -f ask.
    for (let j = 1; j < value.length; j++) {
      const letter = value[j]!;
      if (letter === 'i') return 'sed -i edits files in place';
      if (letter === 'f') return 'sed -f runs a script the gate cannot see';
      if (letter === 'e' || letter === 'l') {
        const rest = value.slice(j + 1);
        const taken = rest.length > 0 ? rest : args[++i]?.value;
        if (taken === undefined) return `sed -${letter} without a value`;
        if (letter === 'e') scripts.push(taken);
        break;
      }
      if (!'nErsuz'.includes(letter)) return `sed -${letter} is an option the gate does not know`;
    }
  }
  if (scripts.length === 0) {
    const script = operands.shift();
    if (script === undefined) return 'sed without a script';
    scripts.push(script);
  }
  for (const script of scripts) {
    const unsafe = unsafeSedScript(script);
    if (unsafe) return `sed: ${unsafe}`;
  }
  return undefined;
}

function splitLong(value: string): [string, string | undefined] {
  const eq = value.indexOf('=');
  return eq < 0 ? [value, undefined] : [value.slice(0, eq), value.slice(eq + 1)];
}
