/** A tiny element builder: no innerHTML anywhere, so nothing a server sends is ever parsed as markup. */

type Child = Node | string | number | null | undefined | false;

/** Create an element with attributes (`data-*` included) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
  return element;
}

/** Pretty JSON for display. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}
