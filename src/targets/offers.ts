/**
 * What a server offers besides tools: its resources, resource templates and prompts, each
 * summarised from what the server sent (`candor inspect` prints them, the console shows them).
 */
import type { Client } from '@modelcontextprotocol/client';
import { listAllPrompts, listAllResources } from './list.js';

/** A resource as inspect and the console report it. */
export interface ResourceSummary {
  uri: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
}

/** A resource template as inspect and the console report it. */
export interface ResourceTemplateSummary {
  uriTemplate: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
}

/** A prompt as inspect and the console report it: its arguments in order, each required or not. */
export interface PromptSummary {
  name: string;
  title?: string;
  description?: string;
  arguments: Array<{ name: string; required: boolean; description?: string }>;
}

/** The resources, templates and prompts of one server. */
export interface ServerOffers {
  resources: ResourceSummary[];
  resourceTemplates: ResourceTemplateSummary[];
  prompts: PromptSummary[];
}

type Raw = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function optional(raw: Raw, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = text(raw[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * The summaries of what `resources/list`, `resources/templates/list` and `prompts/list` sent.
 *
 * @example
 * ```ts
 * summarizeOffers({ resources: [{ uri: 'ui://notes/view.html', name: 'view' }], resourceTemplates: [], prompts: [] });
 * ```
 */
export function summarizeOffers(raw: {
  resources: readonly unknown[];
  resourceTemplates: readonly unknown[];
  prompts: readonly unknown[];
}): ServerOffers {
  const records = (list: readonly unknown[]) =>
    list.filter((item): item is Raw => typeof item === 'object' && item !== null);
  return {
    resources: records(raw.resources).flatMap((r) =>
      typeof r.uri === 'string' ? [{ uri: r.uri, ...optional(r, ['name', 'title', 'mimeType', 'description']) }] : [],
    ),
    resourceTemplates: records(raw.resourceTemplates).flatMap((t) =>
      typeof t.uriTemplate === 'string'
        ? [{ uriTemplate: t.uriTemplate, ...optional(t, ['name', 'title', 'mimeType', 'description']) }]
        : [],
    ),
    prompts: records(raw.prompts).flatMap((p) =>
      typeof p.name === 'string'
        ? [
            {
              name: p.name,
              ...optional(p, ['title', 'description']),
              arguments: records(Array.isArray(p.arguments) ? p.arguments : []).flatMap((a) =>
                typeof a.name === 'string'
                  ? [{ name: a.name, required: a.required === true, ...optional(a, ['description']) }]
                  : [],
              ),
            },
          ]
        : [],
    ),
  };
}

/**
 * List and summarise what a connected server offers (nothing of a kind it does not declare).
 *
 * @example
 * ```ts
 * const { resources, prompts } = await listOffers(connection.client, { timeoutMs: 30_000 });
 * ```
 */
export async function listOffers(client: Client, options: { timeoutMs?: number } = {}): Promise<ServerOffers> {
  const { resources, resourceTemplates } = await listAllResources(client, options);
  const prompts = await listAllPrompts(client, options);
  return summarizeOffers({ resources, resourceTemplates, prompts });
}
