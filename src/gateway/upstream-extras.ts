/**
 * Resources, resource templates and prompts of the upstream servers, served
 * downstream through the engine's own registries: prompts namespaced like tools
 * (`server__prompt`), resources under their own URIs (URIs are already global;
 * `ui://` included so MCP Apps keep working), each read, get and completion
 * routed to the server that owns it.
 */
import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { definePrompt } from '../prompts/define.js';
import type { PromptDefinition } from '../prompts/types.js';
import { defineResource, defineResourceTemplate } from '../resources/define.js';
import type { Completer, ResourceContext, ResourceDefinition, ResourceTemplateDefinition } from '../resources/types.js';
import { compileUriTemplate } from '../resources/uri-template.js';
import type { MessageGuard } from './results/message-guard.js';

/** What one upstream contributes besides tools. */
export interface UpstreamExtras {
  resources: Array<ResourceDefinition | ResourceTemplateDefinition>;
  prompts: PromptDefinition[];
  warnings: string[];
}

type Loose = Record<string, unknown>;

/** A list page, loosely: entries are checked here, not dropped by a schema. */
const LOOSE_PAGE = z.looseObject({});

/** Every page of a list method, kept loosely (the SDK's typed helpers drop unknown keys). */
async function listAll(client: Client, method: string, key: string): Promise<Loose[]> {
  const items: Loose[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = (await client.request(
      { method, params: cursor === undefined ? {} : { cursor } } as never,
      LOOSE_PAGE,
    )) as Loose;
    const list = result[key];
    if (Array.isArray(list)) for (const item of list) if (item && typeof item === 'object') items.push(item as Loose);
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '') break;
    cursor = next;
  }
  return items;
}

/**
 * List an upstream's resources, templates and prompts and wrap each one so the
 * engine serves it and forwards reads, gets and completions.
 *
 * @example
 * ```ts
 * const extras = await upstreamExtras('memory', client, '__');
 * ```
 */
export async function upstreamExtras(
  server: string,
  client: Client,
  separator: string,
  guard?: MessageGuard,
): Promise<UpstreamExtras> {
  const capabilities = (client.getServerCapabilities() ?? {}) as Loose;
  const extras: UpstreamExtras = { resources: [], prompts: [], warnings: [] };
  const forwardCompletion =
    (ref: Loose, argument: string): Completer =>
    async (value, context) => {
      const result = (await client.complete({
        ref: ref as never,
        argument: { name: argument, value },
        ...(Object.keys(context.arguments).length > 0 ? { context: { arguments: context.arguments } } : {}),
      })) as { completion?: { values?: unknown } };
      const values = result.completion?.values;
      return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
    };

  // Resources and template matches alike are read from their owner by URI.
  // What is read and got passes the result guards on its way (secrets, injected instructions).
  const read = async (ctx: ResourceContext): Promise<{ contents: [] }> => {
    const result = (await client.readResource({ uri: ctx.uri }, { signal: ctx.signal })) as unknown as { contents: [] };
    if (guard === undefined) return result;
    const guarded = await guard(server, 'resource', result);
    if (guarded.message !== undefined) return guarded.message;
    const text = `candor gateway: ${ctx.uri} from ${server} was withheld: ${guarded.withheld}. Nothing of it was passed on.`;
    return { contents: [{ uri: ctx.uri, mimeType: 'text/plain', text }] } as unknown as { contents: [] };
  };

  if (capabilities.resources) {
    try {
      for (const resource of await listAll(client, 'resources/list', 'resources')) {
        if (typeof resource.uri !== 'string' || typeof resource.name !== 'string') continue;
        const uri = resource.uri;
        const { uri: _u, name, ...rest } = resource;
        extras.resources.push(
          defineResource({
            ...(rest as object),
            uri,
            name,
            read,
          }),
        );
      }
    } catch (error) {
      extras.warnings.push(`${server}: resources/list failed: ${(error as Error).message}`);
    }
    try {
      for (const template of await listAll(client, 'resources/templates/list', 'resourceTemplates')) {
        if (typeof template.uriTemplate !== 'string' || typeof template.name !== 'string') continue;
        const uriTemplate = template.uriTemplate;
        const complete: Record<string, Completer> = {};
        if (capabilities.completions) {
          for (const variable of compileUriTemplate(uriTemplate).variables) {
            complete[variable] = forwardCompletion({ type: 'ref/resource', uri: uriTemplate }, variable);
          }
        }
        const { uriTemplate: _t, name, ...rest } = template;
        try {
          extras.resources.push(
            defineResourceTemplate({
              ...(rest as object),
              uriTemplate,
              name,
              complete,
              read,
            }),
          );
        } catch (error) {
          extras.warnings.push(`${server}: resource template ${uriTemplate} skipped: ${(error as Error).message}`);
        }
      }
    } catch (error) {
      extras.warnings.push(`${server}: resources/templates/list failed: ${(error as Error).message}`);
    }
  }

  if (capabilities.prompts) {
    try {
      for (const prompt of await listAll(client, 'prompts/list', 'prompts')) {
        if (typeof prompt.name !== 'string') continue;
        const upstreamName = prompt.name;
        const args = Array.isArray(prompt.arguments)
          ? (prompt.arguments as Loose[]).filter((a) => typeof a.name === 'string')
          : [];
        const complete: Record<string, Completer> = {};
        if (capabilities.completions) {
          for (const arg of args) {
            complete[arg.name as string] = forwardCompletion(
              { type: 'ref/prompt', name: upstreamName },
              arg.name as string,
            );
          }
        }
        try {
          extras.prompts.push(
            definePrompt({
              name: `${server}${separator}${upstreamName}`,
              ...(typeof prompt.title === 'string' ? { title: prompt.title } : {}),
              ...(typeof prompt.description === 'string' ? { description: prompt.description } : {}),
              arguments: args.map((a) => ({
                name: a.name as string,
                ...(typeof a.description === 'string' ? { description: a.description } : {}),
                ...(a.required === true ? { required: true } : {}),
              })),
              complete,
              ...(prompt._meta && typeof prompt._meta === 'object' ? { _meta: prompt._meta as Loose } : {}),
              get: async (values, ctx) => {
                const clean: Record<string, string> = {};
                for (const [k, v] of Object.entries(values ?? {})) if (typeof v === 'string') clean[k] = v;
                const result = await client.getPrompt({ name: upstreamName, arguments: clean }, { signal: ctx.signal });
                if (guard === undefined) return result as never;
                const guarded = await guard(server, 'prompt', result);
                if (guarded.message !== undefined) return guarded.message as never;
                const text = `candor gateway: the prompt ${upstreamName} of ${server} was withheld: ${guarded.withheld}. Nothing of it was passed on.`;
                return { messages: [{ role: 'user', content: { type: 'text', text } }] } as never;
              },
            }),
          );
        } catch (error) {
          extras.warnings.push(`${server}: prompt ${upstreamName} skipped: ${(error as Error).message}`);
        }
      }
    } catch (error) {
      extras.warnings.push(`${server}: prompts/list failed: ${(error as Error).message}`);
    }
  }
  return extras;
}
