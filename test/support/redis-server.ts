/**
 * A real Redis for tests: Debian's `redis-server` started on a free
 * loopback port with no persistence, stopped when the test file ends. Tests that
 * need Redis fail loudly when the binary is missing — `.ci/run` installs it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stop it (SIGKILL, as an outage looks). */
  kill(): Promise<void>;
  /** Freeze it (SIGSTOP): connections stay open, nothing is answered — a hung Redis. */
  pause(): void;
  /** Let a paused Redis go on (SIGCONT); what it held is still there. */
  resume(): void;
  /** Start it again on the same port (empty: no persistence). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A port the kernel just handed out on loopback and released. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Start `redis-server` on a free port.
 *
 * @example
 * const redis = await startRedis();
 * afterAll(() => redis.stop());
 * const server = createServer({ redis: redis.url });
 */
export async function startRedis(binary = process.env.REDIS_SERVER_BIN ?? 'redis-server'): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'candor-redis-'));
  let child: ChildProcess | undefined;

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(
        binary,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = proc;
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start in 10 s:\n${out}`)), 10_000);
      proc.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot start ${binary} (install Debian's redis-server): ${error.message}`));
      });
      proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code} before it was ready:\n${out}`));
      });
    });

  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      const proc = child;
      if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill(signal);
    });

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => end('SIGKILL'),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    restart: launch,
    async stop() {
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
