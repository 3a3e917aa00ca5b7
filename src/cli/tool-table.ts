/**
 * The tool table `candor serve` and `candor inspect` print: name, title, the
 * four hints (a default the server left out is marked "(default)"), tags, UI link.
 */
import pc from 'picocolors';
import { renderTable } from './table.js';
import { HINT_NAMES, type ListedTool, type ShownHint, summarizeTool } from './tool-summary.js';

const HINT_HEADERS = ['READ-ONLY', 'DESTRUCTIVE', 'IDEMPOTENT', 'OPEN-WORLD'];

function showHint(hint: ShownHint, colour: boolean): string {
  const text = `${hint.value ? 'yes' : 'no'}${hint.source === 'default' ? ' (default)' : ''}`;
  if (!colour) return text;
  return hint.source === 'default' ? pc.yellow(text) : text;
}

/**
 * The table for a list of tools.
 *
 * @example
 * ```ts
 * console.log(toolTable(tools, { colour: process.stdout.isTTY }));
 * ```
 */
export function toolTable(tools: readonly ListedTool[], options: { colour?: boolean; indent?: string } = {}): string {
  const colour = options.colour === true;
  const rows = tools.map((tool) => {
    const s = summarizeTool(tool);
    return [
      colour ? pc.bold(s.name) : s.name,
      s.title ?? '—',
      ...HINT_NAMES.map((h) => showHint(s.hints[h], colour)),
      s.tags.length > 0 ? s.tags.join(', ') : '—',
      s.ui ?? '—',
    ];
  });
  return renderTable({ headers: ['NAME', 'TITLE', ...HINT_HEADERS, 'TAGS', 'UI'], rows, indent: options.indent });
}

/** A one-line note explaining "(default)", printed under a table that has any. */
export function defaultsNote(tools: readonly ListedTool[]): string | undefined {
  const count = tools.filter((t) => HINT_NAMES.some((h) => summarizeTool(t).hints[h].source === 'default')).length;
  if (count === 0) return undefined;
  return `(default): the server did not send this hint, so the spec's worst-case default applies (${count} of ${tools.length} tools).`;
}
