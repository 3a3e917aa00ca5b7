/**
 * `candor gateway add <name> -- <command…>` (or `add <name> <url>`), `candor gateway
 * remove <name>` and `candor gateway status`: the servers behind a gateway config setup
 * wrote (or any other, with --config), changed without editing its JSON.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { parse } from 'jsonc-parser';
import { CandorError } from '../errors.js';
import { admissionLines } from '../setup/admit.js';
import { addServer, configStatus, type ManagedConfig, removeServer, serverNames, setupsIn } from '../setup/manage.js';
import type { ServerEntry } from '../setup/types.js';
import { closestNames } from '../util/edit-distance.js';
import { isRecord } from '../util/is-record.js';
import { CliError, EXIT } from './cli-error.js';
import { clientArg } from './client-arg.js';
import { askYesNo, canAsk } from './confirm.js';
import { splitAtDashDash } from './operands.js';
import { placeHere, stateDir } from './setup-place.js';

interface WhichFlags {
  config?: string;
  lock?: string;
  client?: string;
  scope?: string;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

/** A refusal of the config's contents (a taken name, an unreadable file) is the person's to fix: no stack to see. */
async function plainly<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof CandorError && error.code === 'invalid_server_config')
      throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
    throw error;
  }
}

/** The lockfile a config names (`lock.file`, from its folder), else candor.lock.json beside it. */
function lockOf(configFile: string, asked: string | undefined): string {
  if (asked) return path.resolve(asked);
  let named: unknown;
  try {
    const parsed: unknown = parse(readFileSync(configFile, 'utf8'));
    named = isRecord(parsed) && isRecord(parsed.lock) ? parsed.lock.file : undefined;
  } catch {
    named = undefined;
  }
  return path.resolve(path.dirname(configFile), typeof named === 'string' ? named : 'candor.lock.json');
}

/** The gateway config the command works on: --config, the one setup of --client, or the only one there is. */
async function which(flags: WhichFlags): Promise<ManagedConfig & { failed: Record<string, string>; label: string }> {
  const setups = await setupsIn(stateDir(placeHere()));
  if (flags.config) {
    const configFile = path.resolve(flags.config);
    const setup = setups.find((s) => s.record.gatewayConfig === configFile);
    return {
      configFile,
      lockFile: lockOf(configFile, flags.lock ?? setup?.record.lockFile),
      ...(setup ? { folder: setup.folder } : {}),
      failed: setup?.record.failed ?? {},
      label: configFile,
    };
  }
  const client = flags.client === undefined ? undefined : clientArg(flags.client, '--client');
  const matching = setups.filter(
    (s) =>
      (client === undefined || s.record.client === client) &&
      (flags.scope === undefined || s.record.scope === flags.scope),
  );
  const describe = (s: (typeof setups)[number]) =>
    `  --client ${s.record.client} --scope ${s.record.scope}  (${s.record.clientFile})`;
  if (matching.length === 1) {
    const { record, folder } = matching[0]!;
    return {
      configFile: record.gatewayConfig,
      lockFile: record.lockFile,
      folder,
      failed: record.failed,
      label: `${record.client} (${record.scope}): ${record.gatewayConfig}`,
    };
  }
  if (matching.length === 0 && client === undefined && existsSync('candor.gateway.json'))
    return which({ ...flags, config: 'candor.gateway.json' });
  if (matching.length === 0)
    throw new CliError(
      client === undefined
        ? 'No gateway config to change: run candor setup <client> first, or pass --config FILE.'
        : `candor setup has not put the gateway in front of ${client}${flags.scope ? ` (${flags.scope})` : ''}; run candor setup ${client} first, or pass --config FILE.`,
      { exitCode: EXIT.usage },
    );
  throw new CliError(
    'Several gateway configs were written by candor setup; name one with --client (and --scope), or --config FILE:',
    {
      exitCode: EXIT.usage,
      details: matching.map(describe),
    },
  );
}

/** A server name that is not in the config, answered with the names there and the nearest. */
async function unknownServer(configFile: string, name: string): Promise<CliError> {
  const names = await serverNames(configFile);
  const near = closestNames(name, names, 1);
  return new CliError(
    `No server named "${name}" in ${configFile}.${near.length > 0 ? ` Did you mean ${near[0]}?` : ''} Its servers: ${names.join(', ') || '(none)'}.`,
    { exitCode: EXIT.usage },
  );
}

function whichOptions(command: Command): Command {
  return command
    .option('--config <file>', 'the gateway config (default: the one candor setup wrote, when there is one)')
    .option('--client <client>', 'the gateway config candor setup wrote for this client')
    .addOption(
      new Option('--scope <scope>', 'with --client: which of its settings').choices(['user', 'project', 'local']),
    )
    .option('--lock <file>', 'the lockfile (default: the one the config names)');
}

/** `NAME=value` (written to the config, owner-readable only) or `NAME` (a reference the gateway fills from its environment). */
function envPair(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  const name = eq < 0 ? value : value.slice(0, eq);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new CliError(`--env takes NAME=value or NAME; got ${JSON.stringify(value)}.`, { exitCode: EXIT.usage });
  return { ...previous, [name]: eq < 0 ? `\${${name}}` : value.slice(eq + 1) };
}

/**
 * Register `candor gateway add`, `remove` and `status`.
 *
 * @example
 * ```ts
 * registerGatewayManage(program.command('gateway'));
 * ```
 */
export function registerGatewayManage(gateway: Command): void {
  whichOptions(
    gateway
      .command('add')
      .description(
        'Put one more server behind the gateway: started, scanned at the door, pinned and trusted when you say so.',
      )
      .argument('<name>', 'the server name (its tools are listed as <name>__<tool>)')
      .argument('[target...]', "the server's URL, or -- and the command that starts it"),
  )
    .option(
      '--env <NAME=value>',
      "an environment variable for the server; NAME alone passes the gateway's own (repeatable)",
      envPair,
    )
    .option('-y, --yes', 'pin and trust it if the scan at the door passes, without asking')
    .option('--timeout <ms>', 'how long to wait for it to start and list its tools', '30000')
    .addHelpText(
      'after',
      `
Examples:
  candor gateway add memory -- npx -y @modelcontextprotocol/server-memory
  candor gateway add github --env GITHUB_TOKEN -- npx -y @modelcontextprotocol/server-github
  candor gateway add docs https://example.com/mcp --client claude-code`,
    )
    .action(
      async (
        name: string,
        operands: string[],
        flags: WhichFlags & { env?: Record<string, string>; yes?: boolean; timeout: string },
        command: Command,
      ) => {
        const { before, command: cmd } = splitAtDashDash(command, operands);
        if (before.length > 1 || (before.length === 1 && cmd.length > 0) || (before.length === 0 && cmd.length === 0))
          throw new CliError(
            'Name the server by one URL, or put the command that starts it after --: candor gateway add <name> -- <command…>.',
            {
              exitCode: EXIT.usage,
            },
          );
        if (before.length === 1 && !/^https?:\/\//i.test(before[0]!))
          throw new CliError(`${before[0]} is not a URL; a command that starts the server goes after --.`, {
            exitCode: EXIT.usage,
          });
        const timeoutMs = Number(flags.timeout);
        if (!(timeoutMs > 0))
          throw new CliError(`--timeout must be a positive number of milliseconds; got ${flags.timeout}.`, {
            exitCode: EXIT.usage,
          });
        const env = flags.env ? { env: flags.env } : {};
        const entry: ServerEntry =
          cmd.length > 0 ? { command: cmd[0]!, args: cmd.slice(1), ...env } : { url: before[0]!, ...env };
        const at = await which(flags);
        const io = { stdin: process.stdin, stderr: process.stderr };
        const { review, admission } = await addServer(at, name, entry, {
          timeoutMs,
          ...(flags.yes ? { yes: true } : {}),
          ...(canAsk(io) ? { ask: (question: string) => askYesNo(question, io) } : {}),
        });
        out(
          review.tools
            ? `Added ${name} to ${at.label}: ${review.tools.length} tools${review.blocked.length > 0 ? `; the scan at the door keeps out ${review.blocked.map((b) => b.tool).join(', ')}` : ''}.`
            : `Added ${name} to ${at.label}; it did not start: ${review.failed}`,
        );
        for (const line of admissionLines(admission, { gatewayConfig: at.configFile, lockFile: at.lockFile }))
          out(line);
        out(
          'The client sees it the next time it starts the gateway (restart the client, or reconnect its "candor" entry).',
        );
      },
    );

  whichOptions(
    gateway
      .command('remove')
      .description('Take a server out from behind the gateway (and its pins); --undo of setup will not put it back.')
      .argument('<name>', 'the server name'),
  ).action(async (name: string, flags: WhichFlags) => {
    const at = await which(flags);
    if (!(await plainly(serverNames(at.configFile))).includes(name)) throw await unknownServer(at.configFile, name);
    await plainly(removeServer(at, name));
    out(`Removed ${name} from ${at.label} (and its pins).`);
  });

  whichOptions(
    gateway
      .command('status')
      .description('The gateway configs candor setup wrote, and each server: pinned, trusted, how it starts.'),
  ).action(async (flags: WhichFlags) => {
    const picked = flags.config !== undefined || flags.client !== undefined;
    const setups = picked ? [] : await setupsIn(stateDir(placeHere()));
    const targets =
      picked || setups.length === 0
        ? [await which(flags)]
        : setups.map(({ record, folder }) => ({
            configFile: record.gatewayConfig,
            lockFile: record.lockFile,
            folder,
            failed: record.failed,
            label: `${record.client} (${record.scope}) in ${record.clientFile}: ${record.gatewayConfig}`,
          }));
    for (const at of targets) {
      out(at.label);
      const servers = await plainly(configStatus(at, at.failed));
      if (servers.length === 0) out('  (no servers)');
      for (const s of servers) {
        const state = !s.pinned
          ? 'quarantined (not pinned)'
          : s.trusted
            ? 'pinned, trusted'
            : 'pinned, untrusted (every call asks)';
        out(`  ${s.name.padEnd(20)} ${state}${s.failed ? `; did not start at setup: ${s.failed}` : ''}  ${s.reach}`);
      }
    }
  });
}
