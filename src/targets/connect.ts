/**
 * Connecting an SDK v2 `Client` to a target: stdio (a child process), Streamable HTTP
 * (or legacy SSE), or a local module served in process over an in-memory transport. Failures become one clear {@link CandorError} each: the command was
 * not found, the server exited before answering (with its last stderr lines), the URL is
 * unreachable, or the handshake timed out.
 */

import path from 'node:path';
import {
  Client,
  type ClientCapabilities,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CredentialsStore } from '../auth/client/credentials-store.js';
import { enterpriseAuthProvider } from '../auth/client/enterprise-provider.js';
import { CandorOAuthProvider } from '../auth/client/provider.js';
import { findSignInRequired, type SignInRequiredError } from '../auth/client/sign-in-required.js';
import { CandorError } from '../errors.js';
import { httpFailure } from './http-failure.js';
import { closedDuringProbe, InPlaceStdioTransport } from './in-place-stdio.js';
import { loadModuleServer } from './module.js';
import type { HttpTarget, ModuleTarget, StdioTarget, Target } from './types.js';

/** An open connection to a target. */
export interface Connection {
  client: Client;
  label: string;
  target: Target;
  /** The last lines the server wrote to stderr (stdio targets only). */
  stderrTail(): string[];
  /** Close the client and, for stdio, stop the child process. Safe to call twice. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** How long the handshake may take (default 30 s). */
  timeoutMs?: number;
  /** `clientInfo` sent in the handshake (default `{ name: 'candor', version: '0' }`). */
  clientInfo?: { name: string; version: string };
  /** How many stderr lines to keep for error messages (default 20). */
  stderrLines?: number;
  /**
   * Where OAuth sign-ins are kept (default: the user's credentials file, see
   * `candor auth`). `false` turns OAuth off: only static headers are sent.
   */
  credentials?: CredentialsStore | false;
  /**
   * Called when an HTTP server needs a sign-in that is not stored (or no longer works).
   * Resolve `true` once signed in to connect again (once); `false` to fail with the
   * error, which names `candor auth login <target>`.
   */
  onSignInRequired?: (required: SignInRequiredError, target: HttpTarget) => Promise<boolean>;
  /**
   * Which protocol era to speak: `auto` (the default: 2026-07-28 where the server offers
   * it, else 2025-11-25), `legacy` (2025-11-25 `initialize` only) or `modern` (2026-07-28 only).
   */
  era?: 'legacy' | 'modern' | 'auto';
  /**
   * Client capabilities declared to the server (default none), e.g.
   * `{ elicitation: { form: {} } }` together with an `elicitation/create` handler set in
   * {@link ConnectOptions.onClient}. Declared before the handshake, as both eras require:
   * 2025-11-25 in `initialize`, 2026-07-28 in every request's `_meta`.
   */
  capabilities?: ClientCapabilities;
  /**
   * Called with each SDK client made for the target, before it connects (a retry after a
   * sign-in makes a new one): the seam to answer server→client
   * requests (elicitation, sampling, roots), which in 2026-07-28 arrive as an
   * `input_required` result that the client fulfils and retries with `requestState`.
   */
  onClient?: (client: Client) => void;
}

/**
 * Connect to a stdio or HTTP target and complete the MCP handshake.
 *
 * @example
 * ```ts
 * const [target] = await parseTargets({ command: ['node', 'server.js'] });
 * const conn = await connectTarget(target, { timeoutMs: 10_000 });
 * try {
 *   const tools = await listAllTools(conn.client);
 * } finally {
 *   await conn.close();
 * }
 * ```
 */
export async function connectTarget(target: Target, options: ConnectOptions = {}): Promise<Connection> {
  const { timeoutMs = 30_000, clientInfo = { name: 'candor', version: '0' }, stderrLines = 20 } = options;
  if (target.kind === 'invalid') throw new CandorError(target.reason, { code: 'invalid_target' });
  const once = {
    timeoutMs,
    clientInfo,
    stderrLines,
    credentials: options.credentials,
    era: options.era ?? target.protocol,
    capabilities: options.capabilities,
    onClient: options.onClient,
  };
  try {
    return await connectOnce(target, once);
  } catch (error) {
    if ((once.era ?? 'auto') === 'auto' && target.kind === 'stdio' && closedDuringProbe(error)) {
      // It quits on a request before initialize: start it again in 2025-11-25.
      return connectOnce(target, { ...once, era: 'legacy' });
    }
    const required = findSignInRequired(error);
    if (!required || target.kind !== 'http') throw error;
    if (options.onSignInRequired && (await options.onSignInRequired(required, target))) {
      return connectOnce(target, once);
    }
    throw required;
  }
}

async function connectOnce(
  target: StdioTarget | HttpTarget | ModuleTarget,
  options: Required<Pick<ConnectOptions, 'timeoutMs' | 'clientInfo' | 'stderrLines'>> &
    Pick<ConnectOptions, 'credentials' | 'era' | 'capabilities' | 'onClient'>,
): Promise<Connection> {
  const { timeoutMs, clientInfo, stderrLines } = options;
  const client = new Client(clientInfo, {
    ...clientOptionsFor(options.era ?? 'auto', timeoutMs),
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
  });
  options.onClient?.(client);
  const tail: string[] = [];
  let stopServer: (() => Promise<void>) | undefined;
  let transport: Transport;
  if (target.kind === 'module') {
    const memory = await memoryTransport(target);
    transport = memory.transport;
    stopServer = memory.close;
  } else {
    transport =
      target.kind === 'stdio'
        ? stdioTransport(target, tail, stderrLines)
        : httpTransport(target, oauthProviderFor(target, options.credentials));
  }
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await client.close().catch(() => {});
    // After a failed handshake the client may not own the transport yet: close it too,
    // so a server that never answered is stopped rather than left running.
    await transport.close().catch(() => {});
    await stopServer?.().catch(() => {});
  };

  // The child's pid, remembered once it starts: on a failed handshake the SDK may already
  // have dropped its handle to the process by the time we get to stop it.
  let pid: number | null | undefined;
  if (target.kind === 'stdio') {
    const stdio = transport as Transport & { pid?: number | null };
    const start = stdio.start.bind(stdio);
    stdio.start = async () => {
      await start();
      pid = stdio.pid;
    };
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  try {
    await client.connect(transport, { timeout: timeoutMs, signal: controller.signal });
  } catch (error) {
    // A server that never finished the handshake is stopped now: the SDK's close waits on
    // unref'd timers, so a CLI that exits right after would leave it running, orphaned.
    if (pid !== null && pid !== undefined) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    await close();
    // Let the child's last stderr chunk arrive before quoting it.
    if (target.kind === 'stdio') await new Promise((r) => setTimeout(r, 50));
    const required = findSignInRequired(error);
    if (required) throw required;
    throw describeFailure(target, error, { timedOut, timeoutMs, tail, era: options.era ?? 'auto' });
  } finally {
    clearTimeout(timer);
  }
  return { client, label: target.label, target, stderrTail: () => [...tail], close };
}

/**
 * The SDK client's version negotiation for an era choice. `auto` probes with
 * `server/discover` (2026-07-28) and falls back to `initialize`; the probe waits at most
 * 5 s, because a silent stdio server is a 2025 one.
 *
 * @example
 * ```ts
 * new Client({ name: 'me', version: '1' }, clientOptionsFor('modern', 30_000));
 * ```
 */
export function clientOptionsFor(
  era: 'legacy' | 'modern' | 'auto',
  timeoutMs: number,
): ConstructorParameters<typeof Client>[1] {
  if (era === 'modern') return { versionNegotiation: { mode: { pin: '2026-07-28' } } };
  if (era === 'auto') return { versionNegotiation: { mode: 'auto', probe: { timeoutMs: Math.min(timeoutMs, 5_000) } } };
  return undefined;
}

/**
 * A module target served in process: its exported `createServer` result, or a server
 * built around its tools, linked to the client by an in-memory transport.
 */
async function memoryTransport(target: ModuleTarget): Promise<{ transport: Transport; close?: () => Promise<void> }> {
  const { server, owned } = await loadModuleServer(target);
  return {
    transport: server.connectMemory() as unknown as Transport,
    ...(owned ? { close: () => server.close() } : {}),
  };
}

function stdioTransport(target: StdioTarget, tail: string[], keep: number): StdioClientTransport {
  // The era is asked of this process itself, not of a second copy (in-place-stdio.ts).
  const transport = new InPlaceStdioTransport({
    command: target.command,
    args: target.args,
    ...(target.env ? { env: target.env } : {}),
    ...(target.cwd ? { cwd: target.cwd } : {}),
    stderr: 'pipe',
  });
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') tail.push(line);
    if (partial.length > 4096) {
      tail.push(partial);
      partial = '';
    }
    tail.splice(0, Math.max(0, tail.length - keep));
  });
  transport.stderr?.on('end', () => {
    if (partial.trim() !== '') tail.push(partial);
    tail.splice(0, Math.max(0, tail.length - keep));
  });
  return transport;
}

function httpTransport(
  target: HttpTarget,
  provider: CandorOAuthProvider | undefined,
): StreamableHTTPClientTransport | SSEClientTransport {
  const url = new URL(target.url);
  const enterprise = target.auth?.mode === 'enterprise' ? target.auth.enterprise : undefined;
  const options = {
    ...(target.headers ? { requestInit: { headers: target.headers } } : {}),
    // Enterprise-Managed Authorization: a token from the person's single sign-on, no sign-in flow.
    ...(enterprise
      ? { authProvider: enterpriseAuthProvider(enterprise, target.url) }
      : provider
        ? { authProvider: provider, fetch: provider.fetch }
        : {}),
  };
  return target.transport === 'sse'
    ? new SSEClientTransport(url, options)
    : new StreamableHTTPClientTransport(url, options);
}

/**
 * The OAuth provider for an HTTP target: headless, reading and refreshing the
 * stored sign-in. None when OAuth is off (`credentials: false`) or the entry sends its own
 * `Authorization` header.
 */
export function oauthProviderFor(
  target: HttpTarget,
  credentials?: CredentialsStore | false,
): CandorOAuthProvider | undefined {
  if (credentials === false || target.auth?.mode === 'enterprise') return undefined;
  if (target.auth === undefined && sendsOwnAuthorization(target)) return undefined;
  return new CandorOAuthProvider({
    serverUrl: target.url,
    store: credentials ?? new CredentialsStore(),
    ...(target.auth ? { client: target.auth.client } : {}),
    label: target.label,
    loginCommand: `candor auth login ${loginOperand(target)}`,
  });
}

/** True when an HTTP entry sets its own `Authorization` header (then candor does not sign in for it). */
export function sendsOwnAuthorization(target: HttpTarget): boolean {
  return Object.keys(target.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
}

/**
 * The word that names a target to `candor auth login`: `file#name` (the file relative to
 * the working directory) for a config entry, else the URL.
 *
 * @example
 * ```ts
 * loginOperand({ kind: 'http', url: 'https://x.dev/mcp', transport: 'streamable-http', label: 'x' }); // 'https://x.dev/mcp'
 * ```
 */
export function loginOperand(target: HttpTarget, cwd: string = process.cwd()): string {
  if (!target.source) return target.url;
  const relative = path.relative(cwd, target.source.file);
  const file =
    relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? target.source.file : relative;
  const word = `${file}#${target.source.name}`;
  return /^[\w@%+=:,./#-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** Find a Node system error code (ENOENT, ECONNREFUSED…) anywhere in a cause chain. */
function systemCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A forced era the server does not speak (the SDK reports a failed negotiation), as an
 * error naming both eras; undefined for any other failure.
 *
 * @example
 * ```ts
 * throw protocolMismatch('node server.js', 'modern', error) ?? error;
 * ```
 */
export function protocolMismatch(
  label: string,
  era: 'legacy' | 'modern' | 'auto',
  error: unknown,
): CandorError<'target_protocol'> | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (era === 'auto' || !/version negotiation|protocol version/i.test(message)) return undefined;
  const asked = era === 'modern' ? '2026-07-28' : '2025-11-25';
  const other = era === 'modern' ? '2025-11-25' : '2026-07-28';
  return new CandorError(
    `${label}: the server does not speak protocol ${asked}, which was asked for (it may speak only ${other}). Use --protocol ${other} or auto. (${message})`,
    { code: 'target_protocol', cause: error },
  );
}

function describeFailure(
  target: StdioTarget | HttpTarget | ModuleTarget,
  error: unknown,
  {
    timedOut,
    timeoutMs,
    tail,
    era,
  }: { timedOut: boolean; timeoutMs: number; tail: string[]; era: 'legacy' | 'modern' | 'auto' },
): CandorError {
  const message = error instanceof Error ? error.message : String(error);
  const code = systemCode(error);
  const stderr = tail.length > 0 ? `\nLast stderr lines:\n${tail.map((l) => `  ${l}`).join('\n')}` : '';
  const mismatch = protocolMismatch(target.label, era, error);
  if (mismatch) return mismatch;
  if (timedOut) {
    return new CandorError(
      `${target.label}: no answer to the MCP handshake within ${timeoutMs} ms.${target.kind === 'stdio' ? ' Is it an MCP server speaking stdio (does it need an argument such as "stdio")?' : ''}${stderr}`,
      { code: 'target_timeout', cause: error },
    );
  }
  if (target.kind === 'module') {
    return new CandorError(`${target.label}: the in-process server did not complete the handshake: ${message}`, {
      code: 'target_exited',
      cause: error,
    });
  }
  if (target.kind === 'stdio') {
    if (code === 'ENOENT') {
      return new CandorError(`${target.label}: command not found: ${target.command} (checked PATH).`, {
        code: 'target_not_found',
        cause: error,
      });
    }
    if (code === 'EACCES') {
      return new CandorError(`${target.label}: ${target.command} is not executable.`, {
        code: 'target_not_found',
        cause: error,
      });
    }
    return new CandorError(
      `${target.label}: the server exited or closed stdout before completing the MCP handshake (${message}).${stderr}`,
      { code: 'target_exited', cause: error },
    );
  }
  const reason = httpFailure(target.url, error);
  if (reason) {
    return new CandorError(`${target.label}: cannot connect to ${target.url}: ${reason}`, {
      code: 'target_unreachable',
      cause: error,
    });
  }
  return new CandorError(`${target.label}: MCP handshake with ${target.url} failed: ${message}`, {
    code: 'target_unreachable',
    cause: error,
  });
}
