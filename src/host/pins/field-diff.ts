/**
 * Field-by-field differences between two pinned definitions, written the way a
 * person reads them in CI: `readOnlyHint true → false`,
 * `inputSchema.properties.path.type "string" → "number"`.
 */
import { isRecord } from '../../util/is-record.js';
import { canonicalJson } from './canonical-json.js';
import type { PinnedDefinition } from './pin-hash.js';

/** One changed field. `before`/`after` are `undefined` when the field was absent. */
export interface FieldChange {
  /** Dotted path, e.g. `annotations.readOnlyHint`, `inputSchema.properties.path`, `_meta.ui.visibility`. */
  path: string;
  before: unknown;
  after: unknown;
}

/**
 * List what differs between two definitions, deepest differing field first-level by path.
 *
 * @example
 * ```ts
 * diffDefinitions({ name: 'rm', annotations: { readOnlyHint: true } }, { name: 'rm', annotations: { readOnlyHint: false } });
 * // [{ path: 'annotations.readOnlyHint', before: true, after: false }]
 * ```
 */
export function diffDefinitions(before: PinnedDefinition, after: PinnedDefinition): FieldChange[] {
  const changes: FieldChange[] = [];
  walk(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>, [], changes);
  return changes;
}

function walk(before: unknown, after: unknown, path: string[], changes: FieldChange[]): void {
  if (isRecord(before) && isRecord(after)) {
    descend(before, after, path, changes);
    return;
  }
  // A hint that appeared or vanished reads better per hint than as a whole object.
  const perKey = path.length === 1 && (path[0] === 'annotations' || path[0] === 'ui');
  if (perKey && (isRecord(before) || isRecord(after)) && (before === undefined || after === undefined)) {
    descend(isRecord(before) ? before : {}, isRecord(after) ? after : {}, path, changes);
    return;
  }
  if (
    canonicalJson(before ?? null) === canonicalJson(after ?? null) &&
    (before === undefined) === (after === undefined)
  )
    return;
  changes.push({ path: displayPath(path), before, after });
}

function descend(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  path: string[],
  changes: FieldChange[],
): void {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const key of keys) walk(before[key], after[key], [...path, key], changes);
}

function displayPath(path: string[]): string {
  // The pinned `ui` field is `_meta.ui` on the wire; say so.
  const [head, ...rest] = path;
  return [head === 'ui' ? '_meta.ui' : head, ...rest].join('.');
}

/**
 * One change as a line of text. Hints are named on their own, as people say them.
 *
 * @example
 * ```ts
 * formatChange({ path: 'annotations.readOnlyHint', before: true, after: false }); // 'readOnlyHint true → false'
 * formatChange({ path: 'description', before: 'Read a file.', after: undefined }); // 'description "Read a file." → (absent)'
 * ```
 */
export function formatChange(change: FieldChange): string {
  const path = change.path.startsWith('annotations.') ? change.path.slice('annotations.'.length) : change.path;
  return `${path} ${formatValue(change.before)} → ${formatValue(change.after)}`;
}

function formatValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
