/**
 * The console's built browser files (scripts/build-ui.mjs writes them to
 * `dist/ui/`), read once at start. A missing file is a clear error that says to
 * build, not a blank page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CandorError } from '../../errors.js';

/** One served file. */
export interface Asset {
  body: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The folder holding the built assets: `dist/ui` of this package (this file is `dist/src/ui/server/assets.js` or `src/ui/server/assets.ts`). */
export function assetsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = here.includes(`${path.sep}dist${path.sep}`)
    ? path.resolve(here, '..', '..', '..', '..')
    : path.resolve(here, '..', '..', '..');
  return path.join(root, 'dist', 'ui');
}

/**
 * Load the named files from `dir`.
 *
 * @example
 * ```ts
 * const assets = loadAssets(assetsDir(), ['index.html']);
 * assets.get('/index.html')?.type; // 'text/html; charset=utf-8'
 * ```
 */
export function loadAssets(dir: string, names: readonly string[]): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of names) {
    let body: Buffer;
    try {
      body = readFileSync(path.join(dir, name));
    } catch (error) {
      throw new CandorError(
        `The console's browser files are missing (${path.join(dir, name)}); run npm run build (it bundles them with esbuild).`,
        { code: 'ui_assets_missing', cause: error },
      );
    }
    assets.set(`/${name}`, { body, type: TYPES[path.extname(name)] ?? 'application/octet-stream' });
  }
  return assets;
}
