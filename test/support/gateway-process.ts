/**
 * `candor gateway … --http 127.0.0.1:0` from the built CLI, as a person runs it:
 * resolves once it prints its endpoint line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { CLI } from './cli-harness.js';

export interface GatewayProcess {
  /** The MCP endpoint it printed. */
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

/**
 * Start the gateway with `args` (plus `--http 127.0.0.1:0`); the caller kills `child`.
 *
 * @example
 * const gateway = await startGatewayProcess(['--config', config], { cwd: dir });
 */
export function startGatewayProcess(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; onSpawn?: (child: ChildProcess) => void },
): Promise<GatewayProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'gateway', ...args, '--http', '127.0.0.1:0'], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    options.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no endpoint line:\n${stdout}\n${stderr}`)), 60_000);
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      const match = /MCP endpoint: (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child, stdout: () => stdout, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`candor gateway exited (${code}):\n${stdout}\n${stderr}`));
    });
  });
}
