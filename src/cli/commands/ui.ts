/**
 * `candor ui [targets… | --config FILE | -- cmd…] [--example NAME…] [--port N] [--open]
 * [--policy PRESET|FILE] [--trust NAME…] [--lock FILE] [--overrides FILE] [--root DIR]`:
 * a local web console over MCP servers that shows their annotations and hosts
 * their MCP Apps safely. With no targets it shows the bundled
 * workspace and notes examples, so `npx candor ui` shows something at once.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { upstreamOf } from '../../gateway/config.js';
import { sandboxTargets } from '../../gateway/sandboxing.js';
import { POLICY_PRESETS, Policy } from '../../host/policy.js';
import type { PolicyConfig, PolicyPreset, ServerConfig } from '../../host/types.js';
import type { CandorServer } from '../../server/create-server.js';
import { parseTargets } from '../../targets/parse.js';
import type { StdioTarget } from '../../targets/types.js';
import { logSettingsFrom, stderrLogger } from '../../util/logger.js';
import { CliError, EXIT } from '../cli-error.js';
import { loadServerModule } from '../load-server.js';
import { openBrowser } from '../open-browser.js';
import { splitAtDashDash } from '../operands.js';
import { demoRoot } from '../package-root.js';
import { addProtocolOption, type ProtocolChoice } from '../protocol-flag.js';
import { nameFor } from './gateway.js';

const UI_EXAMPLES = ['workspace', 'notes-app'] as const;

interface UiCliOptions {
  config?: string;
  example: string[];
  port?: number;
  open?: boolean;
  policy?: string;
  trust: string[];
  lock?: string;
  overrides?: string;
  root?: string;
  sandbox?: boolean;
  /** `--protocol`: the era to speak to every server (default: its entry's `"protocol"`, else `auto`). */
  protocol?: ProtocolChoice;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('must be a port number (0 for any free one).');
  return n;
}

/** `--policy`: a preset name, or a JSON file `{ "preset": …, "rules": [...] }` (checked by the host's own Policy). */
export async function loadPolicy(value: string): Promise<PolicyConfig | PolicyPreset> {
  if ((POLICY_PRESETS as readonly string[]).includes(value)) return value as PolicyPreset;
  let text: string;
  try {
    text = await readFile(value, 'utf8');
  } catch (error) {
    throw new CliError(
      `--policy ${value}: not a preset (${POLICY_PRESETS.join(', ')}) and not a readable file: ${(error as Error).message}`,
      { exitCode: EXIT.usage, cause: error },
    );
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--policy ${value}: not JSON: ${(error as Error).message}`, {
      exitCode: EXIT.usage,
      cause: error,
    });
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new CliError(`--policy ${value}: expected an object like { "preset": "default", "rules": [...] }.`, {
      exitCode: EXIT.usage,
    });
  }
  try {
    new Policy(config as PolicyConfig);
  } catch (error) {
    throw new CliError(`--policy ${value}: ${(error as Error).message}`, { exitCode: EXIT.usage, cause: error });
  }
  return config as PolicyConfig;
}

/** The servers `candor ui` connects to, the in-process ones to close afterwards, and the sandboxes to remove. */
async function uiServers(
  operands: string[],
  command: Command,
  opts: UiCliOptions,
): Promise<{ servers: Record<string, ServerConfig>; local: CandorServer[]; dispose: () => Promise<void> }> {
  const { before, command: cmd } = splitAtDashDash(command, operands);
  const servers: Record<string, ServerConfig> = {};
  const local: CandorServer[] = [];
  const stdio: Array<[string, StdioTarget]> = [];
  const eras = new Map<string, ProtocolChoice>();
  const examples =
    opts.example.length > 0 || before.length > 0 || cmd.length > 0 || opts.config !== undefined
      ? opts.example
      : [...UI_EXAMPLES];
  for (const example of examples) {
    if (!(UI_EXAMPLES as readonly string[]).includes(example)) {
      throw new CliError(`There is no example named "${example}"; available: ${UI_EXAMPLES.join(', ')}.`, {
        exitCode: EXIT.usage,
      });
    }
    let server: CandorServer;
    if (example === 'notes-app') {
      const { createNotesServer } = await import('../../../examples/notes-app/index.js');
      server = createNotesServer();
    } else {
      const root = opts.root ?? demoRoot();
      if (root === undefined) {
        throw new CliError('The demo root folder is not installed with this copy of candor; pass --root <dir>.', {
          exitCode: EXIT.usage,
        });
      }
      const { createWorkspaceServer } = await import('../../../examples/workspace/index.js');
      try {
        server = createWorkspaceServer({ root: path.resolve(root) });
      } catch (error) {
        throw new CliError(`Cannot start the workspace example: ${(error as Error).message}`, {
          exitCode: EXIT.usage,
          cause: error,
        });
      }
    }
    local.push(server);
    // candor's own examples, in process: their hints are derived from what the code declares.
    servers[example === 'notes-app' ? 'notes' : 'workspace'] = {
      transport: server.connectMemory() as never,
      trust: 'trusted',
    };
  }
  if (before.length > 0 || cmd.length > 0 || opts.config !== undefined) {
    const targets = await parseTargets({
      targets: before,
      ...(cmd.length > 0 ? { command: cmd } : {}),
      ...(opts.config !== undefined ? { config: opts.config } : {}),
    }).catch((error: Error) => {
      throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
    });
    for (const target of targets) {
      if (target.kind === 'invalid') throw new CliError(`${target.label}: ${target.reason}`, { exitCode: EXIT.usage });
      if (target.kind === 'module') {
        const name = uniqueName(path.basename(target.path).replace(/\.[cm]?[jt]sx?$/, ''), servers);
        const { server } = await loadServerModule(target.path);
        local.push(server);
        servers[name] = { transport: server.connectMemory() as never };
        continue;
      }
      const name = nameFor(target, servers);
      const era = opts.protocol ?? target.protocol;
      if (era !== undefined) eras.set(name, era);
      if (target.kind === 'http') {
        if (target.transport === 'sse') {
          throw new CliError(
            `${target.label}: the legacy HTTP+SSE transport is not supported; use the Streamable HTTP endpoint.`,
            { exitCode: EXIT.usage },
          );
        }
        // The gateway's reading of an HTTP entry: OAuth sign-ins included.
        const { url, headers, auth, loginTarget } = upstreamOf(target);
        servers[name] = {
          url: url!,
          ...(headers ? { headers } : {}),
          ...(auth ? { auth } : {}),
          ...(loginTarget ? { loginTarget } : {}),
        };
      } else {
        servers[name] = {}; // keeps the config's order; filled in below
        stdio.push([name, target]);
      }
    }
  }
  // A server started for review runs as the gateway would run it: sandboxed when its entry, its file or --sandbox says so.
  const logger = stderrLogger({ name: 'candor ui', ...logSettingsFrom(process.env) });
  const sandboxed = await sandboxTargets(stdio, { ...(opts.sandbox ? { sandbox: true } : {}), logger });
  for (const [name] of stdio) {
    const config = sandboxed.servers[name];
    if (config) servers[name] = { ...config, stderr: 'pipe' };
    else delete servers[name]; // refused: the gateway's line is on stderr
  }
  // A server that cannot be reached is shown failed, with its error, instead of keeping the console from starting.
  for (const [name, config] of Object.entries(servers)) {
    if (config.transport === undefined) servers[name] = { ...config, optional: true, connectTimeoutMs: 20_000 };
    const era = eras.get(name);
    if (era !== undefined && servers[name]) servers[name].era = era;
  }
  for (const name of opts.trust) {
    const server = servers[name];
    if (!server) {
      throw new CliError(
        `--trust ${name}: no server of that name; the servers are ${Object.keys(servers).join(', ')}.`,
        { exitCode: EXIT.usage },
      );
    }
    server.trust = 'trusted';
  }
  return { servers, local, dispose: () => sandboxed.dispose() };
}

/** A server name from a module file's name: letters, digits, dots and dashes, unique among `taken`. */
function uniqueName(base: string, taken: Record<string, unknown>): string {
  const clean = base.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '') || 'module';
  let name = clean;
  for (let i = 2; name in taken; i++) name = `${clean}-${i}`;
  return name;
}

async function runUi(operands: string[], command: Command, opts: UiCliOptions): Promise<void> {
  const { servers, local, dispose } = await uiServers(operands, command, opts);
  const closeLocal = async () => {
    await Promise.all(local.map((s) => s.close().catch(() => undefined)));
    await dispose();
  };
  const { startConsole } = await import('../../ui/server/console-server.js');
  let ui: Awaited<ReturnType<typeof startConsole>>;
  try {
    ui = await startConsole({
      host: {
        servers,
        ...(opts.policy !== undefined ? { policy: await loadPolicy(opts.policy) } : {}),
        ...(opts.lock !== undefined ? { pins: { file: path.resolve(opts.lock) } } : {}),
        ...(opts.overrides !== undefined ? { overrides: path.resolve(opts.overrides) } : {}),
      },
      ...(opts.port !== undefined ? { port: opts.port } : {}),
    });
  } catch (error) {
    await closeLocal();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new CliError(`Port ${opts.port} is taken: pick another with --port, or --port 0 for any free one.`, {
        cause: error,
      });
    }
    throw error;
  }
  const summary = ui.host
    .servers()
    .map((s) =>
      s.status === 'connected' ? `${s.name} (${s.tools} tools, ${s.trust})` : `${s.name} (${s.status}: ${s.error})`,
    )
    .join(', ');
  process.stdout.write(
    `candor ui: ${summary}\nOpen ${ui.url}\n(the token in the URL is new each launch; Ctrl-C stops)\n`,
  );
  if (opts.open) await openBrowser(ui.url, { warn: (line) => process.stderr.write(`candor ui: ${line}\n`) });
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    void ui
      .close()
      .then(closeLocal)
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Register `candor ui`.
 *
 * @example
 * ```ts
 * registerUi(new Command('candor'));
 * ```
 */
export function registerUi(program: Command): Command {
  const command = program
    .command('ui')
    .description(
      'A local web console: annotations, lint, pins, calls through the host policy, and MCP App Views hosted safely.',
    )
    .usage('[targets…] [options]  |  [options] -- <command> [args…]')
    .argument(
      '[targets...]',
      'server URLs, module files, client config entries (file.json#name), or -- a stdio command',
    )
    .option('--config <file>', 'a client config file: every server in its mcpServers map')
    .option(
      '--example <name>',
      `add a bundled example (${UI_EXAMPLES.join(', ')}); repeatable`,
      (v: string, p: string[]) => [...p, v],
      [],
    )
    .option('--root <dir>', 'the workspace example: the folder its tools may touch (default: its demo folder)')
    .option('--port <n>', 'console port on 127.0.0.1 (default: any free port)', parsePort)
    .option('--open', 'open the console in the default browser')
    .option(
      '--policy <preset|file>',
      `a policy preset (${POLICY_PRESETS.join(', ')}) or a JSON file { "preset", "rules" }`,
    )
    .option(
      '--trust <server>',
      'trust this server: its hints may relax prompts (repeatable)',
      (v: string, p: string[]) => [...p, v],
      [],
    )
    .option('--lock <file>', 'pin tools against this lockfile (candor pin writes it): pin state and diffs in the table')
    .option('--overrides <file>', "your declarations of third-party tools' effects")
    .option(
      '--sandbox',
      'start every stdio server not marked "sandbox": false in the default bubblewrap sandbox, as candor gateway --sandbox (entries with "sandbox" always are)',
    )
    .addHelpText(
      'after',
      [
        '',
        'With no targets the console shows the workspace and notes examples.',
        'The URL it prints carries a per-launch token; the API refuses requests without it or from another origin.',
        '',
        'Examples:',
        '  candor ui',
        '  candor ui --open --config ~/.cursor/mcp.json',
        '  candor ui --example notes-app -- npx -y @modelcontextprotocol/server-memory',
        '  candor ui http://127.0.0.1:3000/mcp --policy confirm-writes --lock candor.lock.json',
      ].join('\n'),
    );
  return addProtocolOption(command).action(async (operands: string[], opts: UiCliOptions, command: Command) => {
    await runUi(operands, command, opts);
  });
}
