/** Title precedence (spec: `title`, then `annotations.title`, then `name`) and title derivation. */

/** Split a tool name into its words: snake, kebab, camel, dots and digits. */
export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
}

/**
 * A readable title from a tool name.
 *
 * @example
 * ```ts
 * deriveTitle('read_file'); // "Read File"
 * deriveTitle('getHTTPResponse'); // "Get HTTP Response"
 * ```
 */
export function deriveTitle(name: string): string {
  const words = splitWords(name);
  if (words.length === 0) return name;
  return words.map((w) => (w === w.toUpperCase() ? w : w[0]?.toUpperCase() + w.slice(1).toLowerCase())).join(' ');
}

export function resolveTitle(
  name: string,
  title: string | undefined,
  annotationTitle: string | undefined,
): { title: string; source: 'title' | 'annotations' | 'derived' } {
  if (typeof title === 'string' && title.trim() !== '') return { title, source: 'title' };
  if (typeof annotationTitle === 'string' && annotationTitle.trim() !== '') {
    return { title: annotationTitle, source: 'annotations' };
  }
  return { title: deriveTitle(name), source: 'derived' };
}
