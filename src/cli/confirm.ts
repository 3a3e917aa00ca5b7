/**
 * Asking a person before a destructive call: on a terminal, a y/N
 * question; without one, the caller must have passed `--yes` (headless means
 * deny, never hang).
 */
import { createInterface } from 'node:readline/promises';

/** The streams a question needs. */
export interface PromptIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** True when a person can answer a question (stdin and stderr are terminals). */
export function canAsk(io: PromptIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true;
}

/**
 * Ask a yes/no question on the terminal; anything but y/yes is no.
 *
 * @example
 * ```ts
 * if (await askYesNo('Delete notes.md?', { stdin: process.stdin, stderr: process.stderr })) …
 * ```
 */
export async function askYesNo(question: string, io: PromptIo): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
