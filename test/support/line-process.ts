/** A child process spoken to in newline-delimited JSON (for raw stdio tests). */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

export interface LineProcess {
  child: ChildProcessWithoutNullStreams;
  /** Every stdout line, parsed (a line that is not JSON fails the test through `nonJson`). */
  messages: unknown[];
  nonJson: string[];
  stderr: () => string;
  send(line: string | object): void;
  /** Wait until a message matches. */
  waitFor(match: (message: any) => boolean, timeoutMs?: number): Promise<any>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startLineProcess(args: string[], env: Record<string, string> = {}): LineProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const messages: unknown[] = [];
  const nonJson: string[] = [];
  let err = '';
  let buffer = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        messages.push(JSON.parse(line));
      } catch {
        nonJson.push(line);
      }
      nl = buffer.indexOf('\n');
    }
    for (const w of [...waiters]) w();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    messages,
    nonJson,
    stderr: () => err,
    send(line) {
      child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
    },
    waitFor(match, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found !== undefined) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message; got ${JSON.stringify(messages)}; stderr: ${err}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    exited,
  };
}
