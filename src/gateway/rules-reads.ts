/**
 * What a Cedar policy set reads of the principal and the resource (a rule
 * decision must cost microseconds). A Cedar decision is a pure function
 * of the request's entities, so two requests that agree on everything the
 * policies read get the same answer: team rules that read only `readOnly`,
 * `destructive`, `trusted` and `groups` put 300 tools into at most 8 classes,
 * and one evaluation per (class, person class, action) stands for all of them.
 *
 * The analysis is conservative: an attribute counts as read wherever its name
 * appears in a condition; an entity compared with literal entities (`==`,
 * `!=`, `in`, in the scope or a condition) is told apart only by whether it is
 * one of them (the gateway's entities have no parents, so `in` is `==`); any
 * other use of `principal` or `resource` (a template slot, an expression of
 * another shape) makes the entity's whole identity part of the key, so each
 * tool or person is then evaluated on its own.
 */
import type { PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';

type Cedar = typeof import('@cedar-policy/cedar-wasm/nodejs');

/** What the policies read of one entity. */
export interface EntityReads {
  /** Its identity (`User::"alice"`, `Tool::"files__write"`) matters in full. */
  id: boolean;
  /**
   * The ids it is only compared with (`principal == User::"alice"`, `resource in
   * [Tool::"a", Tool::"b"]`): an entity whose id is none of them is judged like any other.
   */
  ids: ReadonlySet<string>;
  /** The attributes read, by name. */
  attrs: ReadonlySet<string>;
}

/** What a policy set reads of the principal and the resource. */
export interface RulesReads {
  principal: EntityReads;
  resource: EntityReads;
}

const EVERYTHING: EntityReads = { id: true, ids: new Set(), attrs: new Set(['*']) };

/**
 * Read a (parsed, valid) policy set and say what it reads; when the set cannot
 * be taken apart, everything counts as read.
 *
 * @example
 * ```ts
 * readsOf(cedar, 'permit (principal, action, resource) when { resource.readOnly };');
 * // { principal: { id: false, attrs: Set {} }, resource: { id: false, attrs: Set { 'readOnly' } } }
 * ```
 */
export function readsOf(cedar: Cedar, text: string): RulesReads {
  const parts = cedar.policySetTextToParts(text);
  if (parts.type === 'failure' || parts.policy_templates.length > 0) {
    return { principal: EVERYTHING, resource: EVERYTHING };
  }
  const principal = { id: false, ids: new Set<string>(), attrs: new Set<string>() };
  const resource = { id: false, ids: new Set<string>(), attrs: new Set<string>() };
  const of = { principal, resource } as const;
  for (const policy of parts.policies) {
    const json = cedar.policyToJson(policy);
    if (json.type === 'failure') return { principal: EVERYTHING, resource: EVERYTHING };
    const { principal: p, resource: r, conditions } = json.json as PolicyJson;
    scoped(p, principal);
    scoped(r, resource);
    for (const clause of conditions) walk(clause.body, of);
  }
  return { principal, resource };
}

type Reads = { id: boolean; ids: Set<string>; attrs: Set<string> };
type Reading = { principal: Reads; resource: Reads };

/**
 * A scope constraint: `is` alone checks the type, which is fixed (User, Tool);
 * `==` and `in` compare with one entity (the gateway's entities have no
 * parents, so `in` is `==`); anything else (a slot) reads the identity.
 */
function scoped(constraint: { op: string; in?: unknown; entity?: unknown }, reads: Reads): void {
  if (constraint.op === 'All') return;
  const target =
    constraint.op === 'is' ? (constraint.in as { entity?: unknown } | undefined)?.entity : constraint.entity;
  if (constraint.op === 'is' && constraint.in === undefined) return;
  const id = literalId(target) ?? literalId({ __entity: target });
  if (id === undefined) reads.id = true;
  else reads.ids.add(id);
}

/** The id of an entity literal (`{ "__entity": { "type", "id" } }`, as a value or bare). */
function literalId(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const value = 'Value' in node ? (node as { Value: unknown }).Value : node;
  const entity = (value as { __entity?: { id?: unknown } } | null)?.__entity;
  return typeof entity?.id === 'string' ? entity.id : undefined;
}

/**
 * `principal == User::"a"`, `resource != Tool::"b"`, `principal in [User::"c"]`:
 * the ids compared with, or undefined when the comparison is of another shape.
 */
function comparedIds(key: string, value: unknown): { entity: 'principal' | 'resource'; ids: string[] } | undefined {
  if (key !== '==' && key !== '!=' && key !== 'in') return undefined;
  const { left, right } = (value ?? {}) as { left?: unknown; right?: unknown };
  const [variable, other] = entityOf(left) !== undefined ? [left, right] : [right, left];
  const entity = entityOf(variable);
  if (entity === undefined) return undefined;
  if (key === 'in' && variable === right) return undefined;
  const set = typeof other === 'object' && other !== null && 'Set' in other ? (other as { Set: unknown }).Set : [other];
  if (!Array.isArray(set)) return undefined;
  const ids = set.map(literalId);
  return ids.every((id): id is string => id !== undefined) ? { entity, ids } : undefined;
}

function entityOf(node: unknown): 'principal' | 'resource' | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const variable = (node as { Var?: unknown }).Var;
  return variable === 'principal' || variable === 'resource' ? variable : undefined;
}

/** Every node of an expression (any shape: unknown ones are walked through, so they only add reads). */
function walk(node: unknown, of: Reading): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, of);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    const compared = comparedIds(key, value);
    if (compared !== undefined) {
      for (const id of compared.ids) of[compared.entity].ids.add(id);
      continue;
    }
    if ((key === '.' || key === 'has') && typeof value === 'object' && value !== null) {
      const { left, attr } = value as { left?: unknown; attr?: unknown };
      const entity = entityOf(left);
      const name = Array.isArray(attr) ? attr[0] : attr;
      if (entity !== undefined && typeof name === 'string') {
        of[entity].attrs.add(name);
        continue;
      }
    }
    if (key === 'Var' && (value === 'principal' || value === 'resource')) {
      of[value as 'principal' | 'resource'].id = true;
      continue;
    }
    walk(value, of);
  }
}
