/**
 * The MCP client of a sandboxed server, in the protocol era asked for, with one server
 * process at a time.
 *
 * The SDK's `auto` negotiation over stdio probes `server/discover` on a disposable
 * sibling process started from the same command, then starts the real one. Inside the
 * sandbox that is a second start of the server whose effects land in the same trace and
 * whose leftovers (a lock file held by a process being reaped) can stop the real start.
 * A transport that is a subclass of the SDK's makes it probe in place instead; a server
 * that exits on a request before `initialize` is started once more, speaking 2025-11-25.
 *
 * The client offers MCP roots: the sandbox's copy of the workdir is the one root, so a
 * server that takes the folders it may touch from its client (and refuses every path
 * without them) works on the copy, as it would on the project in a real client.
 */
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientOptionsFor } from '../targets/connect.js';
import { closedDuringProbe, InPlaceStdioTransport } from '../targets/in-place-stdio.js';
import { StderrTail } from './stderr-tail.js';

/** A connected client, its transport and the server's stderr tail. */
export interface SandboxedClient {
  client: Client;
  transport: StdioClientTransport;
  stderr: StderrTail;
}

/** How to start the sandboxed server. */
export interface SandboxedStart {
  command: string;
  args: string[];
  env: Record<string, string>;
  era: 'legacy' | 'modern' | 'auto';
  timeoutMs: number;
  /** Folders offered as the client's roots (`roots/list`). */
  roots: string[];
}

/** The server did not finish the handshake: why, and its last stderr lines. */
export interface SandboxedStartFailure {
  failed: unknown;
  stderr: string[];
}

/**
 * Start the server and finish the handshake in `era` (`auto`: 2026-07-28 when the server
 * answers `server/discover`, else 2025-11-25).
 *
 * @example
 * ```ts
 * const started = await connectSandboxed({ command, args, env, era: 'auto', timeoutMs: 10_000, roots: [work] });
 * if (!('failed' in started)) started.client.getNegotiatedProtocolVersion(); // '2026-07-28'
 * ```
 */
export async function connectSandboxed(start: SandboxedStart): Promise<SandboxedClient | SandboxedStartFailure> {
  const first = await attempt(start, start.era);
  if (!('failed' in first) || start.era !== 'auto' || !closedDuringProbe(first.failed)) return first;
  return attempt(start, 'legacy');
}

async function attempt(
  start: SandboxedStart,
  era: SandboxedStart['era'],
): Promise<SandboxedClient | SandboxedStartFailure> {
  const client = new Client(
    { name: 'candor-observe', version: '0.1.0' },
    { ...clientOptionsFor(era, start.timeoutMs), capabilities: { roots: { listChanged: false } } },
  );
  const roots = start.roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: 'workdir' }));
  client.setRequestHandler('roots/list', async () => ({ roots }));
  const transport = new InPlaceStdioTransport({
    command: start.command,
    args: start.args,
    env: start.env,
    stderr: 'pipe',
  });
  const stderr = new StderrTail(transport.stderr);
  try {
    await client.connect(transport, { timeout: start.timeoutMs });
    return { client, transport, stderr };
  } catch (error) {
    // The last stderr lines arrive as the process ends: wait for the stream's end, briefly.
    const ended = transport.stderr ? once(transport.stderr, 'end').catch(() => {}) : Promise.resolve();
    await transport.close().catch(() => {});
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 200))]);
    return { failed: error, stderr: stderr.lines() };
  }
}
