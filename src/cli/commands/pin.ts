/**
 * `candor pin <target>`: write every tool definition of the target's servers
 * to `candor.lock.json` (hash plus the pinned fields), so `candor verify` and
 * `candor/host` can catch a server that changes under you.
 */
import type { Command } from 'commander';
import { confineTargets } from '../../gateway/sandboxing.js';
import { DOOR_RULES } from '../../host/door-scan.js';
import type { Lockfile } from '../../host/pins/lockfile.js';
import { LOCKFILE_NAME } from '../../host/pins/lockfile.js';
import { pinReviewed } from '../../host/pins/pin-review.js';
import { connectTarget } from '../../targets/connect.js';
import { listAllTools } from '../../targets/list.js';
import { loadModuleTarget } from '../../targets/module.js';
import { parseTargets } from '../../targets/parse.js';
import type { Target } from '../../targets/types.js';
import type { WireToolLike } from '../../tool/annotations.js';
import { logSettingsFrom, stderrLogger } from '../../util/logger.js';
import { CliError, EXIT } from '../cli-error.js';
import { addEnvOptions, commandEnvOf, type EnvOptions } from '../env-options.js';
import { addProtocolOption, type ProtocolChoice } from '../protocol-flag.js';
import { signInWhenAsked } from '../sign-in.js';

/** Options shared by `pin` and `verify`. */
export interface PinCommandOptions extends EnvOptions {
  lock?: string;
  config?: string;
  server?: string;
  name?: string;
  timeout?: string;
  json?: boolean;
  /** `candor pin --accept <rule>`: accept door findings of these lint rules. */
  accept?: string[];
  /** `--sandbox`: every stdio server not marked `"sandbox": false` in the default sandbox, as `candor gateway --sandbox`. */
  sandbox?: boolean;
  /** `--protocol`: the era to speak (default `auto`). */
  protocol?: ProtocolChoice;
}

/** Where output goes (tests pass their own). */
export interface CommandOutput {
  out: (line: string) => void;
}

const defaultOutput: CommandOutput = { out: (line) => process.stdout.write(`${line}\n`) };

/** One target's tools, listed raw, under the server name the lockfile uses. */
export interface TargetTools {
  server: string;
  label: string;
  tools: WireToolLike[];
}

/**
 * The targets named on a command line, and their tools. The lockfile key is
 * the config entry's name, `--name`, or the target's label.
 *
 * @example
 * ```ts
 * const listed = await listTargetTools({ targets: ['http://127.0.0.1:3000/mcp'] }, {});
 * ```
 */
export async function listTargetTools(
  words: { targets: readonly string[]; command: readonly string[] },
  options: PinCommandOptions,
  who = 'candor pin',
): Promise<TargetTools[]> {
  const input: Parameters<typeof parseTargets>[0] = { targets: words.targets };
  if (words.command.length > 0) input.command = words.command;
  if (options.config !== undefined) input.config = options.config;
  if (options.server !== undefined) input.server = options.server;
  Object.assign(input, commandEnvOf(options));
  const targets = await parseTargets(input);
  if (options.name !== undefined && targets.length !== 1) {
    throw new CliError(`--name names one server, but ${targets.length} targets were given.`, { exitCode: EXIT.usage });
  }
  const timeoutMs = options.timeout === undefined ? undefined : Number(options.timeout);
  if (timeoutMs !== undefined && !(timeoutMs > 0)) {
    throw new CliError(`--timeout must be a positive number of milliseconds; got ${options.timeout}.`, {
      exitCode: EXIT.usage,
    });
  }
  // Each stdio server runs as the gateway would run it: sandboxed when its entry, its file or --sandbox says so.
  const logger = { ...stderrLogger({ name: who, ...logSettingsFrom(process.env) }), error() {} };
  const confined = await confineTargets(targets, { ...(options.sandbox ? { sandbox: true } : {}), logger });
  try {
    // The gateway's own line, before anything starts: never listed unsandboxed instead.
    if (confined.refused.length > 0) throw new CliError(confined.refused.join('\n'));
    const listed: TargetTools[] = [];
    for (const [index, target] of targets.entries()) {
      const server = options.name ?? target.source?.name ?? target.label;
      listed.push({
        server,
        label: target.label,
        tools: await toolsOf(confined.targets[index]!, timeoutMs, options.protocol),
      });
    }
    return listed;
  } finally {
    await confined.dispose();
  }
}

async function toolsOf(
  target: Target,
  timeoutMs: number | undefined,
  era: ProtocolChoice | undefined,
): Promise<WireToolLike[]> {
  if (target.kind === 'module') return (await loadModuleTarget(target)).tools as WireToolLike[];
  const connection = await connectTarget(target, {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(era ? { era } : {}),
    onSignInRequired: signInWhenAsked(),
  });
  try {
    const tools = await listAllTools(connection.client, timeoutMs === undefined ? {} : { timeoutMs });
    return tools.filter(
      (tool): tool is WireToolLike =>
        typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string',
    );
  } finally {
    await connection.close();
  }
}

/** Split the command's operands into targets and the words after `--` (a command to start). */
export function splitOperands(command: Command, operands: readonly string[]): { targets: string[]; command: string[] } {
  let root: Command = command;
  while (root.parent) root = root.parent;
  const raw = (root as unknown as { rawArgs?: string[] }).rawArgs ?? [];
  const dash = raw.indexOf('--');
  const tail = dash < 0 ? [] : raw.slice(dash + 1);
  const count = Math.min(tail.length, operands.length);
  return { targets: operands.slice(0, operands.length - count), command: operands.slice(operands.length - count) };
}

/**
 * Pin the targets' tools into the lockfile; other servers' pins are kept.
 *
 * @example
 * ```ts
 * await pinCommand({ targets: [], command: ['node', 'server.js'] }, { lock: 'candor.lock.json' });
 * ```
 */
export async function pinCommand(
  words: { targets: readonly string[]; command: readonly string[] },
  options: PinCommandOptions,
  output: CommandOutput = defaultOutput,
): Promise<Lockfile> {
  const path = options.lock ?? LOCKFILE_NAME;
  const accept = options.accept ?? [];
  const unknown = accept.filter((rule) => !DOOR_RULES.includes(rule));
  if (unknown.length > 0) {
    throw new CliError(
      `--accept ${unknown.join(', ')}: not a rule of the scan at the door; those are ${DOOR_RULES.join(', ')}.`,
      { exitCode: EXIT.usage },
    );
  }
  const listed = await listTargetTools(words, options);
  const { lock, reviews } = await pinReviewed(path, listed, { accept });
  if (options.json) {
    output.out(
      JSON.stringify(
        {
          lockfile: path,
          servers: reviews.map((r) => ({
            server: r.server,
            pinned: r.pinned,
            tools: r.tools,
            changes: r.changes,
            findings: r.findings.flatMap(({ tool, findings }) =>
              findings.map(({ ruleId, severity, message, accepted }) => ({
                tool,
                ruleId,
                severity,
                message,
                accepted,
              })),
            ),
          })),
        },
        null,
        2,
      ),
    );
  } else {
    for (const review of reviews) {
      output.out(
        review.pinned
          ? `Pinned ${review.tools} tool${review.tools === 1 ? '' : 's'} of ${review.server} in ${path}.`
          : `Did not pin ${review.server}: the scan at the door found what a model must not see.`,
      );
      for (const line of review.changes) output.out(`  ${line}`);
      for (const { tool, findings } of review.findings) {
        for (const finding of findings) {
          const state = finding.accepted ? 'accepted' : finding.severity;
          output.out(`  ${tool}: ${state} ${finding.ruleId}: ${finding.message}`);
        }
      }
    }
  }
  const refused = reviews.filter((review) => !review.pinned);
  if (refused.length > 0) {
    const rules = [
      ...new Set(
        refused.flatMap((r) =>
          r.findings.flatMap(({ findings }) =>
            findings.filter((f) => f.severity === 'error' && !f.accepted).map((f) => f.ruleId),
          ),
        ),
      ),
    ].sort();
    throw new CliError(
      `Not pinned: ${refused.map((r) => r.server).join(', ')} (${rules.join(', ')}). Read the findings; if the tools are what you want, pin with ${rules.map((rule) => `--accept ${rule}`).join(' ')}.`,
    );
  }
  return lock;
}

/**
 * Register `candor pin` on a commander program.
 *
 * @example
 * ```ts
 * const program = new Command('candor');
 * registerPin(program);
 * await program.parseAsync(['node', 'candor', 'pin', '--', 'npx', '@modelcontextprotocol/server-memory']);
 * ```
 */
export function registerPin(program: Command, output: CommandOutput = defaultOutput): Command {
  const command = program
    .command('pin')
    .description('Write the tool definitions of a server to candor.lock.json (a hash and the pinned fields per tool).')
    .argument('[targets...]', 'a URL, a config file (mcp.json, mcp.json#name), a module, or -- <command> [args…]')
    .option('--lock <file>', 'lockfile to write', LOCKFILE_NAME)
    .option('--config <file>', 'a client config file with mcpServers')
    .option('--server <name>', 'only this entry of --config')
    .option('--name <server>', 'the server name to pin under (default: the config entry name or the target)')
    .option('--timeout <ms>', 'connect and list timeout in milliseconds')
    .option('--json', 'print a JSON summary')
    .option(
      '--sandbox',
      'start every stdio server not marked "sandbox": false in the default bubblewrap sandbox, as candor gateway --sandbox (entries with "sandbox" always are)',
    )
    .option(
      '--accept <rule>',
      'pin although the scan at the door found this lint rule (description-steering, hidden-unicode, name-shadows-tool, …); repeatable',
      (v: string, p: string[]) => [...p, v],
      [],
    );
  return addEnvOptions(addProtocolOption(command)).action(
    async (operands: string[], options: PinCommandOptions, command: Command) => {
      await pinCommand(splitOperands(command, operands), options, output);
    },
  );
}
