/**
 * The verdict written into a copy of the scanned `server.json`, under candor's
 * own key in `_meta` (reverse-DNS namespaced, as the schema asks of extension
 * metadata), so a catalog can carry it with the server. The rest of the file is
 * kept as it was, formatting included.
 */
import { applyEdits, modify } from 'jsonc-parser';
import type { ScanReport } from './types.js';

/** The `_meta` key candor writes. */
export const SCAN_META_KEY = 'dev.candor/scan';

/** What goes under {@link SCAN_META_KEY}. */
export interface ScanMeta {
  verdict: ScanReport['verdict'];
  /** The verdict in words, with its coverage (`consistent (3 of 4 exercised)`). */
  label: string;
  /** Tools exercised, of `total`. */
  exercised: number;
  total: number;
  /** The entry that was scanned (`packages[0]`, `remotes[0]`). */
  entry?: string;
  package?: ScanReport['package'];
  tools: Array<{
    name: string;
    hints: Record<string, boolean>;
    verdict: string;
    reason?: string;
    effects?: string[];
    pin: string;
  }>;
  evidence: {
    consistent: number;
    contradicts: number;
    notExercised: number;
    lintErrors: number;
    lintWarnings: number;
    observeErrors: number;
    observeWarnings: number;
  };
  needs?: string[];
  candorVersion: string;
  date: string;
}

/**
 * The report in the shape kept in `_meta`.
 *
 * @example
 * ```ts
 * scanMeta(report).evidence.contradicts; // 0
 * ```
 */
export function scanMeta(report: ScanReport): ScanMeta {
  const count = (verdict: string) => report.tools.filter((t) => t.verdict === verdict).length;
  const severity = (list: ReadonlyArray<{ severity: string }>, level: string) =>
    list.filter((f) => f.severity === level).length;
  return {
    verdict: report.verdict,
    label: report.label,
    exercised: report.exercised,
    total: report.total,
    ...(report.serverJson ? { entry: report.serverJson.entry } : {}),
    ...(report.package ? { package: report.package } : {}),
    tools: report.tools.map((t) => ({
      name: t.name,
      hints: t.declared,
      verdict: t.verdict,
      ...(t.reason ? { reason: t.reason } : {}),
      ...(t.effects.length > 0 ? { effects: t.effects } : {}),
      pin: t.pin,
    })),
    evidence: {
      consistent: count('consistent'),
      contradicts: count('contradicts'),
      notExercised: count('not exercised'),
      lintErrors: severity(report.lint, 'error'),
      lintWarnings: severity(report.lint, 'warning'),
      observeErrors: severity(report.observe.findings, 'error'),
      observeWarnings: severity(report.observe.findings, 'warning'),
    },
    ...(report.needs?.length ? { needs: report.needs } : {}),
    candorVersion: report.candorVersion,
    date: report.date,
  };
}

/**
 * A copy of a server.json's text with the verdict under `_meta["dev.candor/scan"]`
 * (replacing an earlier one); every other byte stays.
 *
 * @example
 * ```ts
 * const copy = serverJsonWithVerdict(await readFile('server.json', 'utf8'), report);
 * JSON.parse(copy)._meta['dev.candor/scan'].verdict; // 'consistent'
 * ```
 */
export function serverJsonWithVerdict(text: string, report: ScanReport): string {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const edits = modify(text, ['_meta', SCAN_META_KEY], scanMeta(report), {
    formattingOptions: { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 1 : indent.length },
  });
  const out = applyEdits(text, edits);
  return out.endsWith('\n') ? out : `${out}\n`;
}
