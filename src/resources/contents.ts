/**
 * Normalising what a resource's `read` returned into `resources/read`
 * contents: every item gets the URI and mime type it is about.
 */
import type { ReadReturn, ResourceContents } from './types.js';

/** Fill-ins for items that do not say their own URI, mime type or `_meta`. */
export interface ContentDefaults {
  uri: string;
  mimeType?: string;
  _meta?: { [key: string]: unknown };
}

/**
 * Normalise a read's return value into a `resources/read` result.
 *
 * @example
 * ```ts
 * toReadResult('# Hi', { uri: 'docs://readme', mimeType: 'text/markdown' });
 * // { contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hi' }] }
 * ```
 */
export function toReadResult(value: ReadReturn, defaults: ContentDefaults): { contents: ResourceContents[] } {
  if (typeof value === 'string') return { contents: [item({ text: value }, defaults)] };
  if (value instanceof Uint8Array) return { contents: [item({ blob: toBase64(value) }, defaults)] };
  if (Array.isArray(value)) return { contents: value.map((v) => item(v, defaults)) };
  if (typeof value === 'object' && value !== null && Array.isArray((value as { contents?: unknown }).contents)) {
    const result = value as { contents: Array<Partial<ResourceContents>>; _meta?: { [key: string]: unknown } };
    const out: { contents: ResourceContents[]; _meta?: { [key: string]: unknown } } = {
      contents: result.contents.map((v) => item(v, defaults)),
    };
    if (result._meta !== undefined) out._meta = result._meta;
    return out;
  }
  if (typeof value === 'object' && value !== null) return { contents: [item(value, defaults)] };
  throw new TypeError(`read() for ${defaults.uri} returned ${typeof value}; return a string, bytes or contents.`);
}

function item(value: Partial<ResourceContents> | Uint8Array | string, defaults: ContentDefaults): ResourceContents {
  if (typeof value === 'string') return item({ text: value }, defaults);
  if (value instanceof Uint8Array) return item({ blob: toBase64(value) }, defaults);
  const v = value as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown; _meta?: unknown };
  const uri = typeof v.uri === 'string' ? v.uri : defaults.uri;
  const mimeType = typeof v.mimeType === 'string' ? v.mimeType : defaults.mimeType;
  let out: ResourceContents;
  if (typeof v.text === 'string') out = { uri, text: v.text };
  else if (typeof v.blob === 'string') out = { uri, blob: v.blob };
  else if (v.blob instanceof Uint8Array) out = { uri, blob: toBase64(v.blob) };
  else throw new TypeError(`read() for ${defaults.uri} returned an item with neither text nor blob.`);
  if (mimeType !== undefined) out.mimeType = mimeType;
  const meta = typeof v._meta === 'object' && v._meta !== null ? v._meta : defaults._meta;
  if (meta !== undefined) out._meta = meta as { [key: string]: unknown };
  return out;
}

function toBase64(bytes: Uint8Array): string {
  const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
