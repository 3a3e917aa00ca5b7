/**
 * Third-party MCP servers from npm at pinned versions, installed by the
 * tests themselves into a cache folder (node_modules/.cache/candor-servers, one
 * prefix per package so their dependency trees never mix). An install that
 * finished leaves a marker; the next run reuses it. Installs run under a lock,
 * so test files that share a server wait for each other instead of racing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './cli-harness.js';

/** The servers the precision tests run, by short name: package and pinned version. */
export const PINNED = {
  'desktop-commander': { pkg: '@wonderwhy-er/desktop-commander', version: '0.2.52', bin: 'desktop-commander' },
  playwright: { pkg: '@playwright/mcp', version: '0.0.83', bin: 'playwright-mcp' },
  'mcp-sqlite': { pkg: 'mcp-sqlite', version: '1.0.9', bin: 'mcp-sqlite-server' },
  dbhub: { pkg: '@bytebase/dbhub', version: '1.4.0', bin: 'dbhub' },
  taskmanager: { pkg: '@kazuph/mcp-taskmanager', version: '1.1.1', bin: 'mcp-taskmanager' },
  excel: { pkg: '@negokaz/excel-mcp-server', version: '0.12.0', bin: 'excel-mcp-server' },
  pdf: { pkg: '@modelcontextprotocol/server-pdf', version: '2.0.4', bin: 'mcp-pdf-server' },
  obsidian: { pkg: 'mcp-obsidian', version: '1.0.0', bin: 'mcp-obsidian' },
} as const;

export type PinnedServer = keyof typeof PINNED;

export const SERVER_CACHE = path.join(REPO, 'node_modules', '.cache', 'candor-servers');

/** The folder a pinned package is installed under. */
export function serverPrefix(name: PinnedServer): string {
  const { pkg, version } = PINNED[name];
  return path.join(SERVER_CACHE, `${pkg.replace(/[@/]/g, '_')}_${version}`);
}

/** The package's own folder (to read its source). */
export function serverPackageDir(name: PinnedServer): string {
  return path.join(serverPrefix(name), 'node_modules', PINNED[name].pkg);
}

/**
 * Install a pinned server (once; later calls find the marker) and return its binary.
 * Browser downloads are skipped: the tests use Debian's chromium.
 *
 * @example
 * ```ts
 * const bin = installServer('mcp-sqlite'); // …/node_modules/.bin/mcp-sqlite-server
 * ```
 */
export function installServer(name: PinnedServer): string {
  const { pkg, version, bin } = PINNED[name];
  const prefix = serverPrefix(name);
  const marker = path.join(prefix, '.installed');
  mkdirSync(prefix, { recursive: true });
  if (!existsSync(marker)) {
    const script = `test -f .installed || { [ -f package.json ] || echo '{}' > package.json; npm install --no-audit --no-fund --loglevel=error ${pkg}@${version} && touch .installed; }`;
    execFileSync('flock', [path.join(SERVER_CACHE, '.lock'), 'sh', '-c', script], {
      cwd: prefix,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 15 * 60_000,
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    });
  }
  writeFileSync(marker, version);
  return path.join(prefix, 'node_modules', '.bin', bin);
}
