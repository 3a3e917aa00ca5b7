/**
 * `candor setup [client]`: put the gateway in front of the servers a client already
 * uses (and take it out again with --undo). Without a client, lists the client
 * config files found on this machine. The environment is read here only.
 */
import { existsSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { clientNamesText } from '../../gateway/client-names.js';
import { readClientFile } from '../../setup/client-file.js';
import { CLIENTS, clientById } from '../../setup/clients/index.js';
import { findClients } from '../../setup/found.js';
import { locate } from '../../setup/locate.js';
import { runSetup } from '../../setup/setup.js';
import { setupFolder } from '../../setup/state.js';
import type { ClientSpec, Place, Scope } from '../../setup/types.js';
import { type Restored, undoSetup } from '../../setup/undo.js';
import { CliError, EXIT } from '../cli-error.js';
import { clientArg } from '../client-arg.js';
import { askYesNo, canAsk } from '../confirm.js';
import { selfCommandHere } from '../self-command.js';
import { placeHere, stateDir } from '../setup-place.js';

interface SetupFlags {
  scope?: Scope;
  dryRun?: boolean;
  undo?: boolean;
  yes?: boolean;
  http?: string;
  timeout?: string;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The scope asked for; else project when the project has a file for this client, else
 * local when the client keeps servers for this project in the person's own file, else user.
 */
async function scopeOf(client: ClientSpec, place: Place, asked: Scope | undefined): Promise<Scope> {
  if (asked) {
    if (!client.files[asked]) throw new CliError(`${client.title} has no ${asked} scope.`, { exitCode: EXIT.usage });
    return asked;
  }
  const project = locate(client, 'project', place);
  if (project && existsSync(project.file)) return 'project';
  const local = locate(client, 'local', place);
  // An unreadable file is reported by setup itself, at the scope it falls back to.
  const servers = local && (await readClientFile(local.file, local.mapPath).catch(() => undefined))?.servers;
  return servers && Object.keys(servers).length > 0 ? 'local' : 'user';
}

async function listFound(place: Place): Promise<void> {
  const found = await findClients(place, stateDir(place));
  if (found.length === 0) {
    out(`No client config found. candor setup knows ${CLIENTS.map((c) => c.id).join(', ')}.`);
    return;
  }
  out('Client configs on this machine:');
  for (const f of found) {
    const what =
      typeof f.servers === 'string'
        ? `cannot be read: ${f.servers}`
        : f.setUp
          ? 'the candor gateway is in front'
          : `${f.servers.length} server(s): ${f.servers.join(', ') || '-'}`;
    const where = f.project === undefined ? f.file : `${f.file}, project ${f.project}`;
    out(`  ${`${f.client} --scope ${f.scope}`.padEnd(30)} ${where}  (${what})`);
  }
  out('Put the gateway in front of one: candor setup <client> [--scope user|project|local] [--dry-run]');
  if (found.some((f) => f.project !== undefined))
    out('Local-scope servers belong to their project: run setup --scope local from that folder.');
}

/** What undo tells the person about one file. */
function undoLines(r: Restored): string[] {
  const lines = [
    r.only === undefined
      ? `Restored ${r.file} as it was before setup.`
      : `Restored ${r.only} in ${r.file}; the rest of the file was kept as it is now.`,
  ];
  const back = r.placed.filter((name) => !r.added.includes(name));
  if (back.length > 0) lines.push(`  Put back: ${back.join(', ')}.`);
  if (r.added.length > 0)
    lines.push(`  Added behind the gateway since setup, now in the client: ${r.added.join(', ')}.`);
  if (r.leftovers) {
    lines.push(`  Not put back (written to ${r.leftovers.file}):`);
    for (const [name, l] of Object.entries(r.leftovers.servers)) lines.push(`    ${name}: ${l.reason}`);
  }
  return lines;
}

/** Register `candor setup`. */
export function registerSetup(program: Command): Command {
  return program
    .command('setup')
    .description("Put the candor gateway in front of a client's MCP servers (and take it out with --undo).")
    .argument('[client]', `one of ${clientNamesText()}; without it, lists the clients found`)
    .addOption(
      new Option(
        '--scope <scope>',
        "the client's user settings, the project's checked-in ones, or the project's in your own file (Claude Code's local)",
      ).choices(['user', 'project', 'local']),
    )
    .option('--dry-run', 'print the diff of each file it would change, and change nothing')
    .option(
      '--undo',
      'put the servers back into the client (those added behind the gateway since too), keeping the rest of the file as it is now',
    )
    .option('-y, --yes', 'pin and trust every server the scan at the door passes, without asking')
    .option('--http <url>', 'point the client at a running gateway at this URL instead of starting one (stdio)')
    .option('--timeout <ms>', 'how long to wait for each server to start and list its tools', '30000')
    .addHelpText(
      'after',
      `
The client's servers move into a gateway config in candor's folder ($XDG_CONFIG_HOME/candor/setup/, else
~/.config/candor/setup/), with env values and headers written as \${NAME} references: the values stay in the
client's own file, in the env of its one "candor" entry. Each server is started, linted and scanned at the door;
the servers you pin and trust (one question each, or --yes) are offered: their read-only tools run without a
question and tools that change or delete things ask you first, through the client. The others stay quarantined
until you pin them. Every changed file is backed up; --undo puts every server back, wherever it is now.

Examples:
  candor setup                          # which clients have a config here
  candor setup cursor --dry-run         # what would change
  candor setup claude-code --scope project --yes
  candor setup claude-code --scope local --yes   # the servers "claude mcp add" put in this project
  candor setup claude-code --scope project --undo`,
    )
    .action(async (id: string | undefined, flags: SetupFlags) => {
      const place = placeHere();
      if (id === undefined) return listFound(place);
      const client = clientById(clientArg(id));
      const scope = await scopeOf(client, place, flags.scope);
      if (flags.undo) {
        const where = locate(client, scope, place)!;
        const restored = await undoSetup(setupFolder(stateDir(place), client, scope, where), client);
        const project = where.project === undefined ? '' : ` for ${where.project}`;
        if (restored.length === 0)
          out(`candor setup has not changed ${client.title}'s ${scope} settings${project}; nothing to undo.`);
        for (const line of restored.flatMap(undoLines)) out(line);
        if (restored.some((r) => r.leftovers)) process.exitCode = EXIT.failure;
        return;
      }
      const timeoutMs = Number(flags.timeout);
      if (!(timeoutMs > 0))
        throw new CliError(`--timeout must be a positive number of milliseconds; got ${flags.timeout}.`, {
          exitCode: EXIT.usage,
        });
      if (flags.http !== undefined && !/^https?:\/\//i.test(flags.http))
        throw new CliError(`--http takes the gateway's URL, e.g. http://127.0.0.1:8080/mcp; got ${flags.http}.`, {
          exitCode: EXIT.usage,
        });
      const io = { stdin: process.stdin, stderr: process.stderr };
      const self = selfCommandHere();
      await runSetup({
        client,
        scope,
        place,
        stateDir: stateDir(place),
        gateway:
          flags.http !== undefined
            ? { kind: 'http', url: flags.http }
            : { kind: 'stdio', command: self.command, args: self.args },
        timeoutMs,
        out,
        ...(flags.dryRun ? { dryRun: true } : {}),
        ...(flags.yes ? { yes: true } : {}),
        ...(canAsk(io) ? { ask: (question: string) => askYesNo(question, io) } : {}),
      });
      if (flags.http === undefined && !flags.dryRun && self.note) out(self.note);
    });
}
