/**
 * A plausible GraphQL answer without the API's schema: `{ data }` shaped from the
 * operation's selection set, so a client reading `data.repository.issues.nodes[0].title`
 * finds it. Fields with a selection become objects, or lists of two objects when the name
 * reads as a collection (`nodes`, `edges`, a plural); leaves get a value that fits their
 * name (ids, counts, flags, dates, URLs, text). Every flag is `false`, so a client paging
 * on `pageInfo.hasNextPage` stops after one page. Bounded in depth and size.
 */
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
} from 'graphql';

/** How deep an answer goes and how many fields it holds before the rest are `null`. */
const MAX_DEPTH = 12;
const MAX_FIELDS = 5_000;

/** Fields that mark a Relay-style connection object (the list is inside it). */
const CONNECTION_FIELDS = new Set(['nodes', 'edges', 'pageInfo', 'totalCount']);

/** A fixed moment, so two answers to the same query are the same. */
const WHEN = '2026-01-01T00:00:00Z';

function isCollection(name: string): boolean {
  const lower = name.toLowerCase();
  if (['nodes', 'edges', 'items', 'results', 'data', 'list'].includes(lower)) return true;
  // A plural, not a word that only ends in s (status, address, analysis, alias).
  return lower.endsWith('s') && !/(ss|us|is|as)$/.test(lower);
}

function typeName(field: string): string {
  const singular = isCollection(field) && field.endsWith('s') ? field.slice(0, -1) : field;
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

/**
 * A leaf value that fits its name.
 *
 * @example
 * ```ts
 * leafValue('createdAt', 1, 'Issue'); // '2026-01-01T00:00:00Z'
 * ```
 */
export function leafValue(name: string, index: number, parentType: string): unknown {
  const lower = name.toLowerCase();
  if (name === '__typename') return parentType;
  if (lower === 'id' || name.endsWith('Id') || name.endsWith('ID') || lower.endsWith('_id')) return `id-${index}`;
  if (/^(is|has|can|should|viewer(can|has|did|is))[A-Z_]/.test(name) || lower === 'locked' || lower === 'closed') {
    return false;
  }
  if (lower.endsWith('count') || ['total', 'number', 'size', 'amount', 'price', 'quantity'].includes(lower)) {
    return index;
  }
  if (name.endsWith('At') || lower.endsWith('_at') || lower.endsWith('date') || lower.endsWith('time')) return WHEN;
  if (lower.endsWith('url') || lower.endsWith('uri') || lower === 'href' || lower === 'link') {
    return `https://example.com/${parentType.toLowerCase()}/${index}`;
  }
  if (lower.includes('email')) return `person${index}@example.com`;
  if (lower.endsWith('cursor')) return `cursor-${index}`;
  return `${name} ${index}`;
}

interface Budget {
  fields: number;
}

function selections(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen: Set<string>) {
  const fields: Array<{ key: string; name: string; set?: SelectionSetNode }> = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      fields.push({
        key: selection.alias?.value ?? selection.name.value,
        name: selection.name.value,
        ...(selection.selectionSet ? { set: selection.selectionSet } : {}),
      });
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      fields.push(...selections(selection.selectionSet, fragments, seen));
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      // A fragment that spreads itself (invalid GraphQL) is followed once.
      if (fragment && !seen.has(name))
        fields.push(...selections(fragment.selectionSet, fragments, new Set([...seen, name])));
    }
  }
  return fields;
}

function shape(
  set: SelectionSetNode,
  type: string,
  index: number,
  depth: number,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  budget: Budget,
): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const field of selections(set, fragments, new Set())) {
    if (field.key in object) continue;
    if (++budget.fields > MAX_FIELDS || depth > MAX_DEPTH) {
      object[field.key] = null;
      continue;
    }
    if (!field.set) {
      object[field.key] = leafValue(field.name, index, type);
      continue;
    }
    const child = typeName(field.name);
    // A connection (`items { nodes … pageInfo … }`) is one object holding the list; a mutation's
    // root fields answer one payload each, whatever their names (`touchItems`, `addLabels`).
    const connection = field.set.selections.some((s) => s.kind === Kind.FIELD && CONNECTION_FIELDS.has(s.name.value));
    const list = isCollection(field.name) && !connection && !(type === 'Mutation' && depth === 0);
    object[field.key] = list
      ? [1, 2].map((i) => shape(field.set!, child, i, depth + 1, fragments, budget))
      : shape(field.set, child, index, depth + 1, fragments, budget);
  }
  return object;
}

/**
 * The answer to one GraphQL request: `{ data }`, or `{ errors }` when the document
 * cannot be read (as a GraphQL server answers a syntax error).
 *
 * @example
 * ```ts
 * graphqlAnswer('{ viewer { login } }'); // { data: { viewer: { login: 'login 1' } } }
 * ```
 */
export function graphqlAnswer(document: string, operationName?: unknown): Record<string, unknown> {
  let parsed: DocumentNode;
  try {
    parsed = parse(document, { noLocation: true, maxTokens: 20_000 });
  } catch (error) {
    return { errors: [{ message: error instanceof Error ? error.message : 'Syntax error' }] };
  }
  const operations = parsed.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const fragments = new Map(
    parsed.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const operation =
    (typeof operationName === 'string' ? operations.find((o) => o.name?.value === operationName) : undefined) ??
    operations[0];
  if (!operation) return { errors: [{ message: 'The document holds no operation.' }] };
  const root = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' }[operation.operation];
  return { data: shape(operation.selectionSet, root, 1, 0, fragments, { fields: 0 }) };
}
