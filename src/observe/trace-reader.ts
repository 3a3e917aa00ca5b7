/**
 * Reads the strace log of a sandboxed server in steps: each read returns the
 * complete lines written since the last one (a line strace is still writing waits
 * for the next read).
 */
import { open, stat } from 'node:fs/promises';

/** The strace log read in steps; see the file comment. */
export class TraceReader {
  #offset = 0;
  #rest = '';
  constructor(readonly file: string) {}

  /** The lines strace wrote since the last read. */
  async read(): Promise<string[]> {
    let size: number;
    try {
      size = (await stat(this.file)).size;
    } catch {
      return [];
    }
    if (size <= this.#offset) return [];
    const handle = await open(this.file, 'r');
    try {
      const buffer = Buffer.alloc(size - this.#offset);
      await handle.read(buffer, 0, buffer.length, this.#offset);
      this.#offset = size;
      const text = this.#rest + buffer.toString('utf8');
      const cut = text.lastIndexOf('\n');
      this.#rest = text.slice(cut + 1);
      return text
        .slice(0, cut + 1)
        .split('\n')
        .filter(Boolean);
    } finally {
      await handle.close();
    }
  }
}
