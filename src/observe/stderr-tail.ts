/**
 * The last lines a server wrote to stderr: shown when it fails to
 * start or dies mid-run, so "Not connected" is never all a person gets.
 */
import type { Stream } from 'node:stream';

/** How many lines are kept. */
export const STDERR_LINES = 20;

/**
 * Keep the last {@link STDERR_LINES} lines of a stream.
 *
 * @example
 * ```ts
 * const tail = new StderrTail(transport.stderr);
 * tail.lines(); // ['Error: cannot find module …']
 * ```
 */
export class StderrTail {
  #lines: string[] = [];
  #partial = '';

  constructor(stream: Stream | null | undefined) {
    stream?.on('data', (chunk: Buffer | string) => this.#add(chunk.toString()));
  }

  #add(text: string): void {
    const parts = (this.#partial + text).split(/\r?\n/);
    this.#partial = parts.pop() ?? '';
    for (const line of parts) if (line.trim() !== '') this.#lines.push(line.slice(0, 500));
    if (this.#lines.length > STDERR_LINES) this.#lines.splice(0, this.#lines.length - STDERR_LINES);
  }

  /** The kept lines, the unfinished last one included. */
  lines(): string[] {
    const all = this.#partial.trim() === '' ? this.#lines : [...this.#lines, this.#partial.slice(0, 500)];
    return all.slice(-STDERR_LINES);
  }
}
