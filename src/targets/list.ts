/**
 * Listing a server's tools, resources and prompts *as sent*: every page, followed by cursor, with
 * the entries left raw. The SDK's `listTools()` validates and may drop entries; lint and
 * inspect need to see exactly what the server advertises, malformed tools included.
 */
import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { CandorError } from '../errors.js';

const Page = (key: string) =>
  z.looseObject({ [key]: z.array(z.unknown()).default([]), nextCursor: z.string().optional().nullable() });

/** Safety cap: a server whose cursors never end must not hang the CLI. */
const DEFAULT_MAX_PAGES = 1000;

interface ListOptions {
  /** Stop after this many pages with an error (default 1000). */
  maxPages?: number;
  /** Per-request timeout in milliseconds (SDK default otherwise). */
  timeoutMs?: number;
}

async function listAll(
  client: Client,
  method: 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list',
  key: string,
  { maxPages = DEFAULT_MAX_PAGES, timeoutMs }: ListOptions,
): Promise<unknown[]> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = (await client.request(
      { method, params: cursor === undefined ? {} : { cursor } },
      Page(key),
      timeoutMs === undefined ? undefined : { timeout: timeoutMs },
    )) as Record<string, unknown>;
    items.push(...((result[key] as unknown[]) ?? []));
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '') return items;
    if (seen.has(next)) {
      throw new CandorError(`${method}: the server returned the cursor ${JSON.stringify(next)} twice (a loop).`, {
        code: 'protocol_error',
      });
    }
    seen.add(next);
    cursor = next;
  }
  throw new CandorError(`${method}: still more pages after ${maxPages}; stopped.`, { code: 'protocol_error' });
}

/**
 * Every tool the server lists, following `nextCursor` until it ends, entries unvalidated.
 *
 * @example
 * ```ts
 * const tools = await listAllTools(conn.client); // [{ name: 'read_file', inputSchema: {…}, annotations: {…} }, …]
 * ```
 */
export function listAllTools(client: Client, options: ListOptions = {}): Promise<unknown[]> {
  return listAll(client, 'tools/list', 'tools', options);
}

/**
 * Every resource and resource template, or `undefined` for each when the server does not
 * offer resources (then there is nothing a `ui://` link could point at).
 *
 * @example
 * ```ts
 * const { resources, resourceTemplates } = await listAllResources(conn.client);
 * ```
 */
export async function listAllResources(
  client: Client,
  options: ListOptions = {},
): Promise<{ resources: Array<{ uri: string }>; resourceTemplates: Array<{ uriTemplate: string }> }> {
  if (!client.getServerCapabilities()?.resources) return { resources: [], resourceTemplates: [] };
  const resources = (await listAll(client, 'resources/list', 'resources', options)).filter(
    (r): r is { uri: string } => typeof (r as { uri?: unknown })?.uri === 'string',
  );
  // Templates are optional even for servers with resources; a -32601 means "none".
  const resourceTemplates = await listAll(client, 'resources/templates/list', 'resourceTemplates', options).then(
    (list) =>
      list.filter(
        (t): t is { uriTemplate: string } => typeof (t as { uriTemplate?: unknown })?.uriTemplate === 'string',
      ),
    () => [],
  );
  return { resources, resourceTemplates };
}

/**
 * Every prompt the server lists (name, title, description, arguments, as sent), or none
 * when it does not offer prompts.
 *
 * @example
 * ```ts
 * const prompts = await listAllPrompts(conn.client); // [{ name: 'review_diff', arguments: [{ name: 'diff', required: true }] }]
 * ```
 */
export async function listAllPrompts(client: Client, options: ListOptions = {}): Promise<Array<{ name: string }>> {
  if (!client.getServerCapabilities()?.prompts) return [];
  return (await listAll(client, 'prompts/list', 'prompts', options)).filter(
    (p): p is { name: string } => typeof (p as { name?: unknown })?.name === 'string',
  );
}
