/**
 * Finding candor's own files from the running CLI, whether it runs from the
 * sources (`src/cli/…`) or the build (`dist/src/cli/…`): walk up from this file
 * to the `package.json` named "candor".
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: { root: string; version: string } | undefined;

/**
 * The package's root folder and version.
 *
 * @example
 * ```ts
 * packageInfo().version; // '0.1.0'
 * ```
 */
export function packageInfo(): { root: string; version: string } {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const json = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
        if (json.name === 'candor') {
          cached = { root: dir, version: json.version ?? '0.0.0' };
          return cached;
        }
      } catch {
        // Not ours; keep walking.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      cached = { root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'), version: '0.0.0' };
      return cached;
    }
    dir = parent;
  }
}

/**
 * The demo root of the workspace example (`examples/workspace/demo-root`), if present.
 *
 * @example
 * ```ts
 * demoRoot(); // '/home/me/candor/examples/workspace/demo-root'
 * ```
 */
export function demoRoot(): string | undefined {
  const dir = path.join(packageInfo().root, 'examples', 'workspace', 'demo-root');
  return existsSync(dir) ? dir : undefined;
}
