/**
 * Shared pieces for the HTTP benchmarks: start a server process, probe it, load
 * it with autocannon. Every server runs in its own process and gets the same
 * load, one after another, in one run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));

export interface RunningServer {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Start `bench/servers/<file>` with args; resolves once it prints `listening <port>`. */
export function startServer(
  file: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'servers', file), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', ...env },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (!m) return;
      child.stdout!.off('data', onData);
      const port = Number(m[1]);
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        port,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before listening:\n${stderr}`)));
  });
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  /** Connection errors (timeouts included), plus 200 answers that carry a JSON-RPC error. */
  errors: number;
}

/** A JSON-RPC error in an answer (plain JSON or one SSE event). */
const RPC_ERROR = /"error":\{"code":/;

/**
 * Load an endpoint with POST requests that are identical but for the JSON-RPC
 * id: every request gets a fresh one, as a real client's do (a server may
 * refuse an id that is still in use in the session, and a bridge routes answers
 * by id). An answer carrying a JSON-RPC error counts as an error.
 */
export async function load(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  seconds: number;
  connections: number;
}): Promise<LoadResult> {
  const message = JSON.parse(options.body) as { id?: unknown };
  let setupRequest: ((request: autocannon.Request) => autocannon.Request) | undefined;
  if (message.id !== undefined) {
    const [head, tail] = JSON.stringify({ ...message, id: '\u0000id' }).split('"\\u0000id"') as [string, string];
    let next = 1;
    setupRequest = (request) => ({ ...request, body: `${head}${next++}${tail}` });
  }
  const result = await autocannon({
    url: options.url,
    method: 'POST',
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: options.seconds,
    pipelining: 1,
    ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
    verifyBody: (body) => !RPC_ERROR.test(String(body)),
  });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + (result.mismatches ?? 0),
  };
}

/** One POST, returning the parsed JSON (or the first SSE `data:` line's JSON). */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  let json: any;
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const line = text.split('\n').find((l) => l.startsWith('data:'));
    json = line ? JSON.parse(line.slice(5)) : undefined;
  } else {
    json = text ? JSON.parse(text) : undefined;
  }
  return { status: res.status, headers: res.headers, json };
}

export const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/**
 * A 2026-07-28 `tools/call` of `echo` with its `_meta` envelope, and the
 * headers that go with it (the body names the era; the headers must agree).
 */
export const MODERN_ECHO_CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'echo',
    arguments: { text: 'hello' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
    },
  },
};
export const MODERN_ECHO_HEADERS = {
  ...JSON_HEADERS,
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};

export function table(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${title}\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

export const BENCH_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const BENCH_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

/**
 * Record a benchmark's figures for `npm run bench -- --json`: run.ts sets
 * BENCH_JSON_DIR, each benchmark writes `<name>.json` there, and run.ts folds
 * them into bench/history/<date>.json. Without the variable this does nothing.
 */
export function record(name: string, figures: object): void {
  const dir = process.env.BENCH_JSON_DIR;
  if (!dir) return;
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
}

/** CPU time (user + system) a process used so far, in microseconds (Linux /proc; undefined elsewhere). */
export function processCpuMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1_000_000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;
