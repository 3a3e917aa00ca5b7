/** Every file under a folder with its bytes, to show a command changed nothing else. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The files under `dir`, by relative path, with their bytes (base64).
 *
 * @example
 * ```ts
 * const before = snapshot(home); await run(); expect(snapshot(home)).toEqual(before);
 * ```
 */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (statSync(file).isFile()) out[name] = readFileSync(file, 'base64');
  }
  return out;
}
