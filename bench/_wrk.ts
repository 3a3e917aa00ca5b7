/**
 * Load from wrk: a C load generator on its own core saturates a
 * node server, where autocannon (in Node) tops out near the bare echo's rate
 * and so never saturates it. `bench/wrk/jsonrpc.lua` gives every request its
 * own JSON-RPC id and counts answers that carry a JSON-RPC error.
 *
 * Next to requests per second this reports the server's CPU time per request
 * (user and system, from /proc/<pid>/stat), the figure that stays put when
 * the machine is shared.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SCRIPT = join(here, 'wrk', 'jsonrpc.lua');
const SESSION_SCRIPT = join(here, 'wrk', 'mcp-session.lua');

/** wrk on PATH, installed with apt-get (Debian package `wrk`) when missing and we may. */
export function ensureWrk(): void {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  const root = process.getuid?.() === 0;
  console.log('wrk is missing: installing the Debian package `wrk`');
  const apt = (args: string[]) =>
    execFileSync(root ? 'apt-get' : 'sudo', root ? args : ['apt-get', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    apt(['update', '-qq']);
    apt(['install', '-y', '-qq', '--no-install-recommends', 'wrk']);
  } catch (error) {
    throw new Error(`wrk is needed for the HTTP benchmarks (apt-get install wrk): ${String(error)}`);
  }
}

/** CPU time a process used so far, user and system, in microseconds (Linux /proc). */
export function processCpu(pid: number): { user: number; sys: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, in USER_HZ (100 on every Linux this runs on).
  return { user: Number(fields[11]) * 10_000, sys: Number(fields[12]) * 10_000 };
}

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Server CPU over the run, µs. */
  userMicros: number;
  sysMicros: number;
  p50Micros: number;
  p99Micros: number;
  /** Socket errors, non-2xx answers and JSON-RPC errors in 200 answers. */
  errors: number;
  /** What the errors were, for the message when there are any. */
  errorDetail: string;
}

/**
 * Load `url` with POSTs of `message` (its id replaced per request) for
 * `seconds` over `connections` connections from one wrk thread, and measure
 * the server process `pid`'s CPU over the same span.
 */
export async function wrkLoad(options: {
  url: string;
  message: object;
  headers: Record<string, string>;
  seconds: number;
  connections: number;
  pid: number;
  /**
   * Let the wrk script open the MCP session itself (initialize with this protocol
   * version, then notifications/initialized) before the calls; `requests` then
   * counts the calls only.
   */
  openSession?: string;
  /** With openSession: a file that keeps the session between runs (the first run opens it). */
  sessionFile?: string;
}): Promise<WrkResult> {
  const [head, tail] = JSON.stringify({ ...options.message, id: '\u0000id' }).split('"\\u0000id"') as [string, string];
  // A long timeout: a slow server (the SDKs right after start) answers late, which is not an error.
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '30s'];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}: ${value}`);
  if (options.openSession === undefined) args.push('-s', SCRIPT, options.url, '--', head, tail);
  else {
    args.push('-s', SESSION_SCRIPT, options.url, '--', head, tail, options.openSession);
    if (options.sessionFile !== undefined) args.push(options.sessionFile);
  }
  const before = processCpu(options.pid);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => {
      text += d.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}:\n${text}`))));
  });
  const after = processCpu(options.pid);
  const line = out.trim().split('\n').at(-1) ?? '';
  const r = JSON.parse(line) as {
    requests: number;
    seconds: number;
    rpcErrors: number;
    socketErrors: number;
    non2xx: number;
    p50us: number;
    p99us: number;
  };
  return {
    requests: r.requests,
    seconds: r.seconds,
    requestsPerSecond: r.requests / r.seconds,
    userMicros: after.user - before.user,
    sysMicros: after.sys - before.sys,
    p50Micros: r.p50us,
    p99Micros: r.p99us,
    errors: r.rpcErrors + r.socketErrors + r.non2xx,
    errorDetail: `${r.socketErrors} socket errors, ${r.non2xx} non-2xx, ${r.rpcErrors} JSON-RPC errors`,
  };
}
