/**
 * Instances of the clustered test server (test/fixtures/cluster-server.ts) as
 * child processes: each is a real `createServer` sharing
 * the Redis at `REDIS_URL`, listening on a free loopback port. Used by the
 * multi-instance tests and by bench/faults.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const fixture = fileURLToPath(new URL('../fixtures/cluster-server.ts', import.meta.url));

export interface Instance {
  name: string;
  /** The MCP endpoint, e.g. `http://127.0.0.1:1234/mcp`. */
  url: string;
  /** The origin (`/readyz`, `/healthz` live there). */
  base: string;
  child: ChildProcess;
  /** What it wrote on stderr so far (log lines with `CLUSTER_LOG=warn`). */
  stderr: () => string;
}

/**
 * Start one instance named `name` (what its `whoami` tool answers).
 *
 * @example
 * const a = await startInstance('i0', { REDIS_URL: redis.url });
 */
export function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, INSTANCE: name, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${err}`)), 20_000);
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        const url = match[1]!;
        resolve({ name, url, base: new URL(url).origin, child, stderr: () => err });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${err}`));
    });
  });
}

/** Kill an instance (SIGKILL, as a crash looks) and wait for it to be gone. */
export function killInstance(instance: Instance): Promise<void> {
  return new Promise((resolve) => {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null) return resolve();
    instance.child.once('exit', () => resolve());
    instance.child.kill('SIGKILL');
  });
}
