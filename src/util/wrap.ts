/**
 * Wrapping text for the terminal: long reasons are folded onto indented
 * lines at spaces, never cut, so the whole cause stays readable. A word longer
 * than the width (a path, a URL) gets a line of its own rather than being split.
 * One pass over the text: time linear in its length.
 */

/**
 * `text` folded to `width` columns, every line after the first starting with `indent`.
 *
 * @example
 * ```ts
 * wrapText('a long reason that goes on', { width: 12, indent: '  ' }); // 'a long\n  reason that\n  goes on'
 * ```
 */
export function wrapText(text: string, options: { width?: number; indent?: string; first?: string } = {}): string {
  const width = Math.max(20, options.width ?? 100);
  const indent = options.indent ?? '';
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = lines.length === 0 ? (options.first ?? '') : indent;
    let empty = true;
    for (const word of paragraph.split(' ')) {
      if (word === '') continue;
      if (!empty && line.length + 1 + word.length > width) {
        lines.push(line);
        line = indent;
        empty = true;
      }
      line += empty ? word : ` ${word}`;
      empty = false;
    }
    lines.push(line);
  }
  return lines.join('\n');
}
