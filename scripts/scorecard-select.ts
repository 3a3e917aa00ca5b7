/**
 * Which npm packages the scorecard scans, by a rule anyone can run again on the same
 * snapshot of npm (name, version, downloads a month, summary; one package a line, TSV):
 *
 *   1. a package is an MCP server candidate when its name has "mcp" as a word part
 *      (`mcp`, `x-mcp`, `mcp-x`, `@s/mcp`) or its summary says "MCP server" or
 *      "Model Context Protocol";
 *   2. it is left out when it is a piece for building or connecting MCP software, not a
 *      server: a word of its name is one of {@link NAME_WORDS} (sdk, framework, proxy,
 *      client, inspector, adapter, middleware, transport, plugin, cli, …); or its summary
 *      says one of {@link SUMMARY_WORDS} (sdk, framework, proxy, adapter, middleware,
 *      polyfill, instrumentation, "internal use only", deprecated, "module for", …);
 *      or it is one platform's build of another package (`-linux-x64`…);
 *      or its summary is empty and its name does not say server;
 *   3. the rest are ranked by downloads a month (then by name) and the first
 *      {@link TOP} are taken;
 *   4. the reference servers (`@modelcontextprotocol/server-*` that pass 1 and 2) and the
 *      earlier scorecard's servers (docs/scorecard/earlier-servers.txt) are added.
 *
 *   npx tsx scripts/scorecard-select.ts [--snapshot npm.tsv]   write docs/scorecard/selection.tsv
 *   npx tsx scripts/scorecard-select.ts --check                 the selection and servers.txt agree
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseListEntry } from '../src/scan/list-entry.js';
import { LIST_FILE, SCORECARD_DIR } from './scorecard-data.js';

/** How many of the ranked packages are taken. */
export const TOP = 140;
export const SELECTION_FILE = path.join(SCORECARD_DIR, 'selection.tsv');
const EARLIER_FILE = path.join(SCORECARD_DIR, 'earlier-servers.txt');

/** Words of a package name that mark a piece for building or connecting MCP software. */
export const NAME_WORDS = [
  'sdk',
  'framework',
  'proxy',
  'client',
  'inspector',
  'adapter',
  'adapters',
  'middleware',
  'transport',
  'transports',
  'polyfill',
  'types',
  'instrumentation',
  'plugin',
  'addon',
  'utils',
  'tunnel',
  'evals',
  'cli',
  'remote',
  'provider',
  'toolkit',
  'handler',
  'schema',
  'generator',
  'hooks',
  'auth',
  'session',
  'nodes',
  'nest',
];
/** Words of a summary that mark the same, unless the summary also says "MCP server". */
export const SUMMARY_WORDS = [
  'sdk',
  'framework',
  'proxy',
  'adapter',
  'middleware',
  'polyfill',
  'instrumentation',
  'internal use only',
  'interal use only',
  'deprecated',
  'plugin',
  'module for',
  'runtime and cli',
  'tools for writing',
  'transport to',
];

export interface SnapshotRow {
  name: string;
  version: string;
  downloads: number;
  summary: string;
}

/** Why a row is selected: its rank among the ranked candidates, a reference server, or the earlier list. */
export interface Selected extends SnapshotRow {
  why: string;
}

const MCP_IN_NAME = /(^|[^a-z])mcp([^a-z]|$)/i;
const SAYS_SERVER = /\bmcp server\b|model context protocol( \(mcp\))? server/i;
const PLATFORM_BUILD = /-(linux|win32|windows|darwin|macos)-(x64|arm64|amd64|ia32)$/;

function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Rule 1. */
export function isCandidate(row: SnapshotRow): boolean {
  return MCP_IN_NAME.test(row.name) || SAYS_SERVER.test(row.summary) || /model context protocol/i.test(row.summary);
}

/** Rule 2: the reason a candidate is left out, or undefined. */
export function exclusion(row: SnapshotRow): string | undefined {
  const word = nameWords(row.name).find((w) => NAME_WORDS.includes(w));
  if (word) return `name word "${word}"`;
  if (PLATFORM_BUILD.test(row.name)) return 'a platform build';
  const summary = row.summary.toLowerCase();
  const said = SUMMARY_WORDS.find((w) => new RegExp(`(^|[^a-z])${w}([^a-z]|$)`).test(summary));
  if (said) return `summary says "${said}"`;
  if (summary.trim() === '' && !nameWords(row.name).includes('server')) return 'no summary';
  return undefined;
}

/** Read the snapshot (header line first). */
export function readSnapshot(file: string): SnapshotRow[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'))
    .filter((cells) => cells.length >= 3 && cells[0])
    .map(([name, version, downloads, summary]) => ({
      name: name!,
      version: version!,
      downloads: Number(downloads) || 0,
      summary: summary ?? '',
    }));
}

/** The package names of a list of targets (`name@1.2.3` → name); server.json lines are read for theirs. */
function packagesOf(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const { target } = parseListEntry(line);
      if (/\.json$/.test(target)) {
        const json = JSON.parse(readFileSync(path.resolve(path.dirname(file), target), 'utf8')) as {
          packages?: Array<{ identifier: string }>;
        };
        return json.packages?.[0]?.identifier ?? target;
      }
      return target.replace(/(.)@[^@/]+$/, '$1');
    });
}

/** Rules 1 to 4 over a snapshot. */
export function select(rows: readonly SnapshotRow[], earlier: readonly string[]): Selected[] {
  const kept = rows.filter((row) => isCandidate(row) && exclusion(row) === undefined);
  const ranked = [...kept].sort((a, b) => b.downloads - a.downloads || a.name.localeCompare(b.name));
  const chosen = new Map<string, Selected>();
  for (const [i, row] of ranked.slice(0, TOP).entries()) chosen.set(row.name, { ...row, why: `rank ${i + 1}` });
  for (const row of ranked)
    if (row.name.startsWith('@modelcontextprotocol/server-') && !chosen.has(row.name))
      chosen.set(row.name, { ...row, why: 'reference server' });
  const byName = new Map(rows.map((row) => [row.name, row]));
  for (const name of earlier) {
    const row = byName.get(name);
    if (row && !chosen.has(name)) chosen.set(name, { ...row, why: 'earlier scorecard' });
  }
  return [...chosen.values()];
}

function tsv(selected: readonly Selected[]): string {
  const lines = selected.map((s) => [s.name, s.version, s.downloads, s.why].join('\t'));
  return `name\tversion\tdownloads_a_month\twhy\n${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      snapshot: { type: 'string', default: '/work/.library/env/packages/npm.tsv' },
      check: { type: 'boolean', default: false },
    },
  });
  const earlier = packagesOf(EARLIER_FILE);
  if (values.check) {
    const selected = readFileSync(SELECTION_FILE, 'utf8').split('\n').slice(1).filter(Boolean);
    const names = new Set(selected.map((line) => line.split('\t')[0]!));
    const listed = new Set(packagesOf(LIST_FILE));
    const missing = [...names].filter((n) => !listed.has(n));
    const extra = [...listed].filter((n) => !names.has(n));
    console.log(`${names.size} selected, ${listed.size} listed`);
    if (missing.length) console.log(`selected but not in servers.txt: ${missing.join(' ')}`);
    if (extra.length) console.log(`in servers.txt but not selected: ${extra.join(' ')}`);
    process.exitCode = missing.length || extra.length ? 1 : 0;
  } else {
    const selected = select(readSnapshot(values.snapshot), earlier);
    writeFileSync(SELECTION_FILE, tsv(selected));
    console.log(`${selected.length} servers selected into ${SELECTION_FILE}`);
  }
}
