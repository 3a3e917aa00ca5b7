/**
 * Opening a URL in the person's browser: `$BROWSER` when set (run with the URL as its
 * one argument, as Python's `webbrowser` and git do), else `xdg-open` / `open` /
 * `start`. Never waits for the browser to exit; a failure to start one only prints a line
 * (the URL is printed anyway by the callers that need it).
 */
import { spawn } from 'node:child_process';

/**
 * Start a browser on `url`. Resolves once the program started (or failed to).
 *
 * @example
 * ```ts
 * await openBrowser('http://127.0.0.1:4000/', { warn: (line) => process.stderr.write(`${line}\n`) });
 * ```
 */
export function openBrowser(
  url: string,
  options: { warn: (line: string) => void; env?: NodeJS.ProcessEnv },
): Promise<void> {
  const env = options.env ?? process.env;
  const browser = env.BROWSER?.trim();
  const [program, args] = browser
    ? [browser, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  return new Promise<void>((resolve) => {
    try {
      const child = spawn(program, args, { stdio: 'ignore', detached: true, env });
      child.once('error', () => {
        options.warn(`could not open a browser (${program} did not start); open the URL yourself.`);
        resolve();
      });
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    } catch {
      options.warn(`could not open a browser (${program} did not start); open the URL yourself.`);
      resolve();
    }
  });
}
