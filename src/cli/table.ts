/**
 * Plain aligned text tables for the terminal: a header row, columns padded to
 * their widest cell, two spaces between columns. Colour codes are ignored when
 * measuring, so a coloured cell still lines up.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences is the point.
const ANSI = /\u001b\[[0-9;]*m/g;

/** The width of a cell as the terminal shows it (ANSI colour codes take no room). */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/**
 * Render rows under headers.
 *
 * @example
 * ```ts
 * renderTable({ headers: ['NAME', 'TITLE'], rows: [['read_file', 'Read File']] });
 * // 'NAME       TITLE\nread_file  Read File'
 * ```
 */
export function renderTable(options: {
  headers: readonly string[];
  rows: ReadonlyArray<readonly string[]>;
  indent?: string;
}): string {
  const { headers, rows, indent = '' } = options;
  const widths = headers.map((h, i) => Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    indent +
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - visibleWidth(cell))))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
