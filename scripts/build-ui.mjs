/**
 * Bundle the `candor ui` browser code (src/ui/browser) into dist/ui with
 * esbuild: the console page and its script, and the sandbox proxy page. Run by
 * `npm run build` after tsc. No CDN and no network at run time: everything the
 * pages load is in dist/ui.
 */
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'src', 'ui', 'browser');
const out = path.join(root, 'dist', 'ui');
mkdirSync(out, { recursive: true });

await build({
  entryPoints: { console: path.join(source, 'console.ts'), sandbox: path.join(source, 'sandbox.ts') },
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox121', 'safari17'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'console.css', 'sandbox.html'])
  copyFileSync(path.join(source, file), path.join(out, file));

const sizes = ['console.js', 'sandbox.js'].map(
  (f) => `${f} ${(statSync(path.join(out, f)).size / 1024).toFixed(1)} KiB`,
);
process.stdout.write(`build-ui: ${sizes.join(', ')}\n`);
