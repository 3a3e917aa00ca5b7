/**
 * Every string of a message the guard reads, in a fixed order, with a way to put a new one
 * in its place: each content block's text, an embedded resource's text and (when it
 * decodes to text) blob, a resource link's fields, `_meta` of the message and of each
 * block, `structuredContent` keys and values at any depth, and whatever else the message
 * holds (a resource's `contents`, a prompt's `messages`, a log's `data`). Images and audio
 * are binary and skipped. The walk keeps its own stack, so nesting of any depth is read.
 */

/** A string of the message. */
export interface Slot {
  text: string;
  /** Where it is, for the audit: `content[1].resource.text`, `structuredContent.{key}`. */
  where: string;
  /** A text content block, in order: a token cut in two is looked for across neighbours. */
  block?: number;
  set: (s: string) => void;
}

type Container = Record<string, unknown> | unknown[];

/** Whether a value is a binary block's payload: an image's or audio's `data`. */
function isBinary(parent: Container, key: string | number): boolean {
  if (key !== 'data' || Array.isArray(parent)) return false;
  return parent.type === 'image' || parent.type === 'audio';
}

/** Bytes that read as UTF-8 text without control characters, or undefined. */
function blobText(blob: string): string | undefined {
  const text = Buffer.from(blob, 'base64').toString('utf8');
  if (text.includes('\uFFFD')) return undefined;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13) return undefined;
  }
  return text;
}

/**
 * The slots of a message (a tool result, a resource read, a prompt, a notification's params).
 *
 * @example
 * ```ts
 * messageSlots({ content: [{ type: 'text', text: 'hi' }] }); // [{ text: 'hi', where: 'content[0].text', block: 0, … }, …]
 * ```
 */
export function messageSlots(message: unknown): Slot[] {
  const slots: Slot[] = [];
  if (message === null || typeof message !== 'object') return slots;
  let blocks = 0;
  const stack: Array<{ value: Container; where: string }> = [{ value: message as Container, where: '' }];
  while (stack.length > 0) {
    const { value, where } = stack.pop() as { value: Container; where: string };
    const entries: Array<[string | number, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value);
    const nested: Array<{ value: Container; where: string }> = [];
    for (const [key, v] of entries) {
      const at = typeof key === 'number' ? `${where}[${key}]` : where === '' ? key : `${where}.${key}`;
      if (typeof key === 'string' && !Array.isArray(value)) {
        // A key can carry a secret as well as a value (`{ "ghp_…": true }`).
        slots.push({ text: key, where: `${at} (key)`, set: (s) => renameKey(value, key, s) });
      }
      if (typeof v === 'string') {
        if (isBinary(value, key)) continue;
        if (key === 'blob' && !Array.isArray(value)) {
          const text = blobText(v);
          if (text !== undefined)
            slots.push({
              text,
              where: at,
              set: (s) => {
                (value as Record<string, unknown>).blob = Buffer.from(s, 'utf8').toString('base64');
              },
            });
          continue;
        }
        const slot: Slot = {
          text: v,
          where: at,
          set: (s) => {
            (value as Record<string | number, unknown>)[key] = s;
          },
        };
        if (key === 'text' && /^content\[\d+\]$/.test(where)) slot.block = blocks++;
        slots.push(slot);
      } else if (v !== null && typeof v === 'object') nested.push({ value: v as Container, where: at });
    }
    // Depth first, in document order.
    for (let k = nested.length - 1; k >= 0; k--) stack.push(nested[k] as { value: Container; where: string });
  }
  return slots;
}

/** Give an object's key a new name, keeping the order of its keys. */
function renameKey(object: Container, from: string, to: string): void {
  if (Array.isArray(object) || from === to) return;
  const entries = Object.entries(object);
  for (const key of Object.keys(object)) delete object[key];
  for (const [key, v] of entries) object[key === from ? to : key] = v;
}

/** A JSON value with every array and object copied and everything else shared (strings cannot change). */
export function copyContainers(value: unknown): unknown {
  const root = Array.isArray(value) ? [...value] : value !== null && typeof value === 'object' ? { ...value } : value;
  if (root === value) return value;
  const stack: Container[] = [root as Container];
  while (stack.length > 0) {
    const node = stack.pop() as Container;
    for (const key of Object.keys(node)) {
      const v = (node as Record<string, unknown>)[key];
      if (v === null || typeof v !== 'object') continue;
      const copy = Array.isArray(v) ? [...v] : { ...(v as object) };
      (node as Record<string, unknown>)[key] = copy;
      stack.push(copy as Container);
    }
  }
  return root;
}
