/**
 * `candor serve [module | --example workspace|notes-app] [--http [host:]port | --stdio] [--root DIR]`:
 * serve the tools a module exports, or a bundled example, over Streamable HTTP
 * or stdio. Over HTTP it prints the endpoint, how to add it to Claude Code,
 * VS Code and Cursor, and the tool table (a new user's first minute).
 */
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { CandorServer } from '../../server/create-server.js';
import { type AuthFlags, authOptionsFromFlags, hasAuthFlags } from '../auth-flags.js';
import { CliError, EXIT } from '../cli-error.js';
import { demoRoot } from '../package-root.js';
import { applyRedisFlag, redisWhere } from '../redis-flag.js';
import { toolTable } from '../tool-table.js';

/** Where to listen for HTTP. */
export interface HttpAddress {
  host: string;
  port: number;
}

export const DEFAULT_HTTP: Readonly<HttpAddress> = Object.freeze({ host: '127.0.0.1', port: 3000 });

const EXAMPLES = ['workspace', 'notes-app'] as const;

/**
 * Parse `--http [host:]port`: `3000`, `127.0.0.1:3000`, `0.0.0.0:8080`, `[::1]:3000`.
 *
 * @example
 * ```ts
 * parseHttpAddress('8080'); // { host: '127.0.0.1', port: 8080 }
 * parseHttpAddress('[::1]:0'); // { host: '::1', port: 0 }
 * ```
 */
export function parseHttpAddress(value: string): HttpAddress {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65535) {
    throw new InvalidArgumentError(
      `expected [host:]port, e.g. 3000, 127.0.0.1:3000 or [::1]:3000; got ${JSON.stringify(value)}.`,
    );
  }
  const host = match[1] === undefined ? DEFAULT_HTTP.host : match[1].replace(/^\[|\]$/g, '');
  return { host, port };
}

/** Options of `candor serve`, as parsed. */
export interface ServeOptions {
  module?: string;
  example?: string;
  /** HTTP address, or undefined for stdio. */
  http?: HttpAddress;
  root?: string;
  allowHost: string[];
  allowPrivateNetwork: boolean;
  allowShell: boolean;
  /** `--auth-*`: serve as an OAuth 2.1 resource server (HTTP only). */
  auth?: AuthFlags;
}

/** A server made from a module or an example, with how to describe it. */
interface Served {
  server: CandorServer;
  name: string;
  what: string;
}

async function buildServer(options: ServeOptions): Promise<Served> {
  if (options.module !== undefined && options.example !== undefined) {
    throw new CliError('Pass a module or --example, not both.', { exitCode: EXIT.usage });
  }
  if (options.example !== undefined) {
    if (!(EXAMPLES as readonly string[]).includes(options.example)) {
      throw new CliError(`There is no example named "${options.example}"; available: ${EXAMPLES.join(', ')}.`, {
        exitCode: EXIT.usage,
      });
    }
    if (options.example === 'notes-app') {
      const { createNotesServer } = await import('../../../examples/notes-app/index.js');
      return { server: createNotesServer(), name: 'candor-notes', what: 'the notes MCP App example' };
    }
    const root = options.root ?? demoRoot();
    if (root === undefined) {
      throw new CliError('The demo root folder is not installed with this copy of candor; pass --root <dir>.', {
        exitCode: EXIT.usage,
      });
    }
    // Loaded on demand: `candor lint` and friends never pay for the example.
    const { createWorkspaceServer } = await import('../../../examples/workspace/index.js');
    let server: CandorServer;
    try {
      server = createWorkspaceServer({
        root,
        allowedHosts: options.allowHost,
        allowPrivateNetwork: options.allowPrivateNetwork,
        commandAllowShell: options.allowShell,
      });
    } catch (error) {
      throw new CliError(`Cannot serve the workspace example: ${(error as Error).message}`, {
        exitCode: EXIT.usage,
        cause: error,
      });
    }
    return { server, name: 'candor-workspace', what: `the workspace example (root: ${path.resolve(root)})` };
  }
  if (options.module === undefined) {
    throw new CliError('What should be served? Pass a module (candor serve ./tools.js) or --example workspace.', {
      exitCode: EXIT.usage,
    });
  }
  if (options.allowHost.length > 0 || options.allowPrivateNetwork || options.allowShell) {
    process.stderr.write(
      'candor: --allow-host, --allow-private-network and --allow-shell apply to --example workspace only.\n',
    );
  }
  const { loadServerModule } = await import('../load-server.js');
  const { server, exportName } = await loadServerModule(options.module, {
    ...(options.root !== undefined ? { root: path.resolve(options.root) } : {}),
  });
  const name = path.basename(options.module).replace(/\.[cm]?[jt]sx?$/, '');
  return { server, name, what: `${options.module} (export ${exportName})` };
}

/**
 * Server names Claude Code keeps for its own servers: `claude mcp add` refuses
 * them ("Cannot add MCP server "workspace": this name is reserved", Claude Code
 * 2.1.330;). A served module with one of these names is printed as
 * `candor-<name>`.
 */
const RESERVED_CLIENT_NAMES: ReadonlySet<string> = new Set([
  'workspace',
  'terminal',
  'office',
  'visualize',
  'window_halo',
  'dev_debug',
  'ccd_session',
  'ccd_session_mgmt',
]);

/**
 * A name safe to paste into a shell command and a JSON key, and one the
 * clients' own `mcp add` commands accept (letters, digits, `-`, `_`; not reserved).
 */
export function clientName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'candor';
  return RESERVED_CLIENT_NAMES.has(safe.toLowerCase()) ? `candor-${safe}` : safe;
}

/**
 * The lines printed when serving over HTTP: endpoint, client setup, tools.
 *
 * @example
 * ```ts
 * console.log(httpBanner({ url: 'http://127.0.0.1:3000/mcp', name: 'workspace', what: 'the workspace example', tools }));
 * ```
 */
export function httpBanner(options: {
  url: string;
  name: string;
  what: string;
  tools: ReadonlyArray<Parameters<typeof toolTable>[0][number]>;
  colour?: boolean;
}): string {
  const name = clientName(options.name);
  const vscode = JSON.stringify({ name, type: 'http', url: options.url });
  const cursor = JSON.stringify({ mcpServers: { [name]: { url: options.url } } });
  return [
    `candor: serving ${plural(options.tools.length, 'tool')} from ${options.what}`,
    '',
    `MCP endpoint: ${options.url}`,
    '',
    'Add it to a client:',
    `  Claude Code  claude mcp add --transport http ${name} ${options.url}`,
    `  Gemini CLI   gemini mcp add --transport http ${name} ${options.url}`,
    `  VS Code      code --add-mcp '${vscode}'`,
    `  Cursor       in ~/.cursor/mcp.json (or .cursor/mcp.json): ${cursor}`,
    '',
    toolTable(options.tools, { colour: options.colour === true }),
    '',
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}

/**
 * Start serving; resolves once the server is up (it runs until a signal).
 *
 * @example
 * ```ts
 * await runServe({ example: 'workspace', http: { host: '127.0.0.1', port: 3000 }, allowHost: [], allowPrivateNetwork: false, allowShell: false });
 * ```
 */
export async function runServe(options: ServeOptions): Promise<void> {
  const { server, name, what } = await buildServer(options);
  const tools = server.registry.list().map((tool) => tool.wire);
  for (const line of await server.startupLint()) process.stderr.write(`${line}\n`);
  if (options.http === undefined) {
    if (options.auth !== undefined && hasAuthFlags(options.auth)) {
      // MCP authorization: stdio SHOULD NOT use it; credentials come from the environment.
      process.stderr.write('candor: --auth-* apply to --http only; stdio is not authenticated.\n');
    }
    server.stdio();
    process.stderr.write(`candor: serving ${plural(tools.length, 'tool')} from ${what} over stdio\n`);
    return;
  }
  const authorizer = await authorizerFor(server, options);
  // server.listen, not a bare listener: it brings the shared state (REDIS_URL / --redis) and /readyz.
  const listener = await server
    .listen({
      host: options.http.host,
      port: options.http.port,
      handleSignals: false,
      ...(authorizer === undefined ? {} : { authorizer }),
    })
    .catch(async (error) => {
      await server.close();
      const hint =
        (error as { cause?: { code?: string } }).cause?.code === 'EADDRINUSE'
          ? ' The port is taken: pick another with --http <port>, or --http 0 for any free one.'
          : '';
      throw new CliError(`${(error as Error).message}${hint}`, { cause: error });
    });
  if (server.shared !== undefined) {
    process.stderr.write(
      `candor: shared state on Redis at ${redisWhere()} (instance ${server.shared.link.instanceId})\n`,
    );
  }
  // Signals are handled before the endpoint is announced: whoever reads it may stop us at once.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write('candor: stopping now.\n');
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`candor: ${signal} received; finishing calls in flight (Ctrl+C again to force).\n`);
    void (async () => {
      await listener.close();
      await server.close();
      process.exit(0);
    })();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.write(
    httpBanner({
      url: listener.url,
      name,
      what,
      tools,
      colour: process.stdout.isTTY === true && !process.env.NO_COLOR,
    }),
  );
}

/**
 * The resource server for `--auth-*` flags, else the one the served module
 * configured with `createServer({ auth })`, else none.
 */
async function authorizerFor(server: CandorServer, options: ServeOptions): Promise<CandorServer['auth']> {
  if (options.auth === undefined || !hasAuthFlags(options.auth)) return server.auth;
  const { host, port } = options.http!;
  const endpoint = port === 0 ? undefined : `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
  try {
    const auth = authOptionsFromFlags(options.auth, endpoint);
    const { createResourceServer } = await import('../../auth/resource-server.js');
    const authorizer = createResourceServer({ ...auth, tools: server.registry, logger: server.dispatcher.logger });
    process.stderr.write(
      `candor: OAuth resource server on: tokens from ${auth.issuer}, metadata at ${authorizer.metadataUrl}\n`,
    );
    return authorizer;
  } catch (error) {
    await server.close();
    if (error instanceof CliError) throw error;
    throw new CliError(`Cannot turn authorization on: ${(error as Error).message}`, {
      exitCode: EXIT.usage,
      cause: error,
    });
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * Register `candor serve`.
 *
 * @example
 * ```ts
 * registerServe(new Command('candor'));
 * ```
 */
export function registerServe(program: Command): Command {
  return program
    .command('serve')
    .description('Serve the tools a module exports, or a bundled example, over Streamable HTTP or stdio.')
    .argument('[module]', 'a .js/.ts module exporting a createServer(...) result, a ToolRegistry or an array of tools')
    .option('--example <name>', `serve a bundled example (${EXAMPLES.join(', ')})`)
    .option(
      '--http [address]',
      `Streamable HTTP on [host:]port (default ${DEFAULT_HTTP.host}:${DEFAULT_HTTP.port}; port 0 picks a free one)`,
      parseHttpAddress,
    )
    .option('--stdio', 'serve over stdin/stdout (the default when stdin is not a terminal)')
    .option('--root <dir>', 'the workspace example: the folder its tools may touch (default: its demo folder)')
    .option(
      '--allow-host <host>',
      'the workspace example: a host web_fetch may reach even if private (repeatable)',
      collect,
      [],
    )
    .option(
      '--allow-private-network',
      'the workspace example: let web_fetch reach private and loopback addresses',
      false,
    )
    .option('--allow-shell', 'the workspace example: let run_command take a shell script', false)
    .option('--auth-issuer <url>', 'HTTP: require OAuth access tokens from this authorization server (issuer)')
    .option('--auth-jwks <url>', "HTTP: the issuer's JWKS URL (default: found through the issuer's metadata)")
    .option(
      '--auth-audience <aud>',
      'HTTP: an accepted token audience (repeatable; default: the resource URL)',
      collect,
      [],
    )
    .option('--auth-resource <url>', 'HTTP: the URL clients use for this server (default: http://<host>:<port>/mcp)')
    .option(
      '--auth-scopes <read,write,destructive>',
      'HTTP: rename the scopes derived from tool effects (default tools:read,tools:write,tools:destructive)',
    )
    .option(
      '--redis <url>',
      'share sessions, resumable streams, rate limits and tool toggles with other instances through this Redis (default: $REDIS_URL)',
    )
    .addHelpText(
      'after',
      [
        '',
        'Without --http or --stdio: HTTP on 127.0.0.1:3000 when run from a terminal, stdio otherwise.',
        'Several instances behind a load balancer: give each the same --redis (or REDIS_URL); see docs/deployment.md.',
        'Probes: GET /healthz (alive) and /readyz (Redis reachable, not draining) on the HTTP port.',
        '',
        'Examples:',
        '  candor serve --example workspace --http 127.0.0.1:3000',
        '  candor serve --example workspace --root . --stdio',
        '  candor serve ./my-tools.js --http 8080',
        '  candor serve --example workspace --http 3000 --auth-issuer https://auth.example.com',
        '  candor serve --example workspace --http 0.0.0.0:3000 --redis redis://10.0.0.5:6379',
      ].join('\n'),
    )
    .action(async (module: string | undefined, opts: Record<string, unknown>) => {
      if (opts.http !== undefined && opts.stdio === true) {
        throw new CliError('Pass --http or --stdio, not both.', { exitCode: EXIT.usage });
      }
      applyRedisFlag(typeof opts.redis === 'string' ? opts.redis : undefined);
      let http: HttpAddress | undefined;
      if (typeof opts.http === 'object' && opts.http !== null) http = opts.http as HttpAddress;
      else if (opts.http === true) http = { ...DEFAULT_HTTP };
      else if (opts.stdio !== true && process.stdin.isTTY === true) http = { ...DEFAULT_HTTP };
      await runServe({
        ...(module !== undefined ? { module } : {}),
        ...(typeof opts.example === 'string' ? { example: opts.example } : {}),
        ...(http ? { http } : {}),
        ...(typeof opts.root === 'string' ? { root: opts.root } : {}),
        allowHost: opts.allowHost as string[],
        allowPrivateNetwork: opts.allowPrivateNetwork === true,
        allowShell: opts.allowShell === true,
        auth: {
          ...(typeof opts.authIssuer === 'string' ? { authIssuer: opts.authIssuer } : {}),
          ...(typeof opts.authJwks === 'string' ? { authJwks: opts.authJwks } : {}),
          authAudience: opts.authAudience as string[],
          ...(typeof opts.authResource === 'string' ? { authResource: opts.authResource } : {}),
          ...(typeof opts.authScopes === 'string' ? { authScopes: opts.authScopes } : {}),
        },
      });
    });
}
