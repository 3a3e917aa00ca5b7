/**
 * Run a Worker in Cloudflare's workerd (the `workerd` npm package carries the
 * binary): bundle an entry with esbuild as a Worker gets it (ES module, no
 * Node.js built-ins), write a workerd config next to it, start workerd on a
 * free loopback port (read from its control descriptor) and stop it after.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';

/** A running Worker. */
export interface RunningWorker {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What workerd wrote to stderr so far (the Worker's console.error lines land here). */
  stderr(): string;
  stop(): Promise<void>;
}

/** The path of the workerd binary the `workerd` package installed for this platform. */
export function workerdBinary(): string {
  return (createRequire(import.meta.url)('workerd') as { default: string }).default;
}

/**
 * Bundle a Worker entry the way a Worker is deployed: one ES module, browser-like
 * platform, every Node.js built-in refused (the build fails if one is imported).
 */
export async function bundleWorker(entry: string, options: { minify?: boolean } = {}): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
    minify: options.minify ?? false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * Start workerd serving `code` (an ES module Worker) on 127.0.0.1 at a free port,
 * with these compatibility flags (e.g. `nodejs_compat`; none by default).
 */
export async function startWorker(code: string, options: { flags?: readonly string[] } = {}): Promise<RunningWorker> {
  const dir = mkdtempSync(path.join(tmpdir(), 'candor-workerd-'));
  writeFileSync(path.join(dir, 'worker.js'), code);
  writeFileSync(
    path.join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ${JSON.stringify(options.flags ?? [])},
);
`,
  );
  const child = spawn(workerdBinary(), ['serve', path.join(dir, 'config.capnp'), '--control-fd=3'], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // workerd reports each socket's port on the control descriptor once it listens.
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdio[3] as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
      if (message.event === 'listen' && message.socket === 'http' && message.port !== undefined) resolve(message.port);
    });
    void exited.then((code) => reject(new Error(`workerd exited (${code}) before listening:\n${stderr}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
