/**
 * Run one process with a time limit and an output cap. The child gets its own
 * process group so a timeout or a cancel kills what it started too, and the
 * group is cleaned up when the main process exits.
 */
import { spawn } from 'node:child_process';

export interface RunOptions {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  stdin?: string;
  signal?: AbortSignal;
}

export interface RunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  stdout: string;
  stderr: string;
  /** Bytes dropped from stdout/stderr because of the cap. */
  droppedStdout: number;
  droppedStderr: number;
  durationMs: number;
}

const KILL_GRACE_MS = 2000;
const CLOSE_GRACE_MS = 500;

/**
 * Spawn `argv` without a shell and collect its output.
 *
 * @example
 * ```ts
 * const r = await runProcess({ argv: ['node', '--version'], cwd: root, env, timeoutMs: 5000, maxOutputBytes: 65536 });
 * r.exitCode; // 0
 * ```
 */
export function runProcess(options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const [command, ...args] = options.argv;
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(command!, args, {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      detached: process.platform !== 'win32',
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out = collector(options.maxOutputBytes);
    const err = collector(options.maxOutputBytes);
    child.stdout.on('data', out.push);
    child.stderr.on('data', err.push);
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');

    let timedOut = false;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        if (process.platform === 'win32') child.kill(signal);
        else process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      killTimer ??= setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      clearTimeout(closeTimer);
      options.signal?.removeEventListener('abort', onAbort);
      // Whatever the command left running in its group goes with it.
      killGroup('SIGKILL');
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        cancelled,
        stdout: out.text(),
        stderr: err.text(),
        droppedStdout: out.dropped(),
        droppedStderr: err.dropped(),
        durationMs: performance.now() - started,
      });
    };

    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // A background grandchild may hold the pipes open; do not wait for it forever.
      closeTimer = setTimeout(finish, CLOSE_GRACE_MS);
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      finish();
    });
  });
}

function collector(max: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  return {
    push: (chunk: Buffer) => {
      const room = max - kept;
      if (room <= 0) {
        dropped += chunk.length;
        return;
      }
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(part);
      kept += part.length;
      dropped += chunk.length - part.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    dropped: () => dropped,
  };
}
