/**
 * Compare a server's tools now with its pins: new, changed, renamed, removed.
 * A rename is a new name whose content (everything but the name) equals a
 * removed tool's, or failing that whose description and input schema do.
 */
import type { WireToolLike } from '../../tool/annotations.js';
import { diffDefinitions, type FieldChange, formatChange } from './field-diff.js';
import type { ServerPins } from './lockfile.js';
import { contentHash, hashDefinition, type PinnedDefinition, pinnedDefinition, shapeHash } from './pin-hash.js';

/** A tool whose pinned definition differs from the current one. */
export interface ChangedTool {
  name: string;
  before: string;
  after: string;
  changes: FieldChange[];
}

/** A tool that appears under a new name. */
export interface RenamedTool {
  from: string;
  to: string;
  /** What else changed besides the name (empty for a pure rename). */
  changes: FieldChange[];
}

/** The drift of one server's tools against its pins. */
export interface PinReport {
  unchanged: string[];
  added: string[];
  changed: ChangedTool[];
  renamed: RenamedTool[];
  removed: string[];
}

/**
 * Compare tools against pins.
 *
 * @example
 * ```ts
 * const report = comparePins(lock.servers.memory, (await client.listTools()).tools);
 * if (hasDrift(report)) console.log(formatReport('memory', report).join('\n'));
 * ```
 */
export function comparePins(pins: ServerPins | undefined, tools: readonly WireToolLike[]): PinReport {
  const report: PinReport = { unchanged: [], added: [], changed: [], renamed: [], removed: [] };
  const pinned = pins?.tools ?? {};
  const current = new Map<string, PinnedDefinition>();
  for (const tool of tools) current.set(tool.name, pinnedDefinition(tool));

  const fresh: string[] = [];
  for (const [name, definition] of current) {
    const pin = pinned[name];
    if (!pin) {
      fresh.push(name);
      continue;
    }
    const hash = hashDefinition(definition);
    if (hash === pin.hash) report.unchanged.push(name);
    else
      report.changed.push({
        name,
        before: pin.hash,
        after: hash,
        changes: diffDefinitions(pin.definition, definition),
      });
  }
  const gone = Object.keys(pinned).filter((name) => !current.has(name));

  // Pair renames: exact content first, then the weaker description + schema match.
  for (const match of [contentHash, shapeHash]) {
    for (const to of [...fresh]) {
      const signature = match(current.get(to)!);
      const from = gone.find((name) => match(pinned[name]!.definition) === signature);
      if (from === undefined) continue;
      report.renamed.push({
        from,
        to,
        changes: diffDefinitions(pinned[from]!.definition, current.get(to)!).filter((c) => c.path !== 'name'),
      });
      fresh.splice(fresh.indexOf(to), 1);
      gone.splice(gone.indexOf(from), 1);
    }
  }
  report.added = fresh.sort();
  report.removed = gone.sort();
  report.unchanged.sort();
  report.changed.sort((a, b) => (a.name < b.name ? -1 : 1));
  return report;
}

/** True when anything was added, changed, renamed or removed. */
export function hasDrift(report: PinReport): boolean {
  return report.added.length + report.changed.length + report.renamed.length + report.removed.length > 0;
}

/**
 * The drift report as lines of text, one tool per line and one change per indented line.
 *
 * @example
 * ```ts
 * formatReport('fs', report);
 * // ['fs: changed write_file', '    readOnlyHint true → false', 'fs: new tool move_file']
 * ```
 */
export function formatReport(server: string, report: PinReport): string[] {
  const lines: string[] = [];
  for (const change of report.changed) {
    lines.push(`${server}: changed ${change.name}`);
    for (const field of change.changes) lines.push(`    ${formatChange(field)}`);
  }
  for (const rename of report.renamed) {
    lines.push(`${server}: renamed ${rename.from} → ${rename.to}`);
    for (const field of rename.changes) lines.push(`    ${formatChange(field)}`);
  }
  for (const name of report.added) lines.push(`${server}: new tool ${name}`);
  for (const name of report.removed) lines.push(`${server}: removed ${name}`);
  return lines;
}
