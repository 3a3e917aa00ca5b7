/**
 * `candor verify <target>`: compare a server's tools with candor.lock.json and
 * fail (exit 1) on any drift, printing what changed field by field
 * ("readOnlyHint true → false"). Meant for CI.
 */
import type { Command } from 'commander';
import { comparePins, formatReport, hasDrift, type PinReport } from '../../host/pins/compare.js';
import { LOCKFILE_NAME, readLockfile } from '../../host/pins/lockfile.js';
import { CliError, EXIT } from '../cli-error.js';
import { addEnvOptions } from '../env-options.js';
import { addProtocolOption } from '../protocol-flag.js';
import { type CommandOutput, listTargetTools, type PinCommandOptions, splitOperands } from './pin.js';

const defaultOutput: CommandOutput = { out: (line) => process.stdout.write(`${line}\n`) };

/** The verdict for one server. */
export interface VerifyResult {
  server: string;
  pinned: boolean;
  report: PinReport;
}

/**
 * Verify targets against the lockfile; throws a {@link CliError} (exit 1) when anything drifted.
 *
 * @example
 * ```ts
 * await verifyCommand({ targets: ['http://127.0.0.1:3000/mcp'], command: [] }, { lock: 'candor.lock.json' });
 * ```
 */
export async function verifyCommand(
  words: { targets: readonly string[]; command: readonly string[] },
  options: PinCommandOptions,
  output: CommandOutput = defaultOutput,
): Promise<VerifyResult[]> {
  const path = options.lock ?? LOCKFILE_NAME;
  const lock = await readLockfile(path);
  if (!lock) {
    throw new CliError(`No lockfile at ${path}. Create it with \`candor pin <target>\` first.`, {
      exitCode: EXIT.usage,
    });
  }
  const listed = await listTargetTools(words, options, 'candor verify');
  const results: VerifyResult[] = listed.map(({ server, tools }) => ({
    server,
    pinned: lock.servers[server] !== undefined,
    report: comparePins(lock.servers[server], tools),
  }));
  const drifted = results.filter((r) => !r.pinned || hasDrift(r.report));

  if (options.json) {
    output.out(JSON.stringify({ lockfile: path, ok: drifted.length === 0, servers: results }, null, 2));
  } else {
    for (const result of results) {
      if (!result.pinned) {
        output.out(
          `${result.server}: not in ${path} (pinned servers: ${Object.keys(lock.servers).join(', ') || 'none'}).`,
        );
      } else if (hasDrift(result.report)) {
        for (const line of formatReport(result.server, result.report)) output.out(line);
      } else {
        const count = result.report.unchanged.length;
        output.out(`${result.server}: ${count} tool${count === 1 ? '' : 's'} match ${path}.`);
      }
    }
  }
  if (drifted.length > 0) {
    throw new CliError(
      `${drifted.map((r) => r.server).join(', ')} drifted from ${path}. Review the changes; re-pin with \`candor pin\` once approved.`,
      { exitCode: EXIT.failure },
    );
  }
  return results;
}

/**
 * Register `candor verify` on a commander program.
 *
 * @example
 * ```ts
 * const program = new Command('candor');
 * registerVerify(program);
 * await program.parseAsync(['node', 'candor', 'verify', 'http://127.0.0.1:3000/mcp']);
 * ```
 */
export function registerVerify(program: Command, output: CommandOutput = defaultOutput): Command {
  const command = program
    .command('verify')
    .description('Compare a server with candor.lock.json; exit 1 and print what changed when anything drifted.')
    .argument('[targets...]', 'a URL, a config file (mcp.json, mcp.json#name), a module, or -- <command> [args…]')
    .option('--lock <file>', 'lockfile to read', LOCKFILE_NAME)
    .option('--config <file>', 'a client config file with mcpServers')
    .option('--server <name>', 'only this entry of --config')
    .option('--name <server>', 'the server name it was pinned under')
    .option('--timeout <ms>', 'connect and list timeout in milliseconds')
    .option('--json', 'print a JSON report')
    .option('--sandbox', 'start every stdio server not marked "sandbox": false in the default bubblewrap sandbox');
  return addEnvOptions(addProtocolOption(command)).action(
    async (operands: string[], options: PinCommandOptions, command: Command) => {
      await verifyCommand(splitOperands(command, operands), options, output);
    },
  );
}
