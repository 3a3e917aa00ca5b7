/**
 * `defineResource` and `defineResourceTemplate`: plain-data definitions in the
 * same style as `defineTool`, checked once at definition time.
 */
import { DefinitionError } from '../errors.js';
import {
  type Completer,
  type Icon,
  MCP_APP_MIME_TYPE,
  type ReadReturn,
  type ResourceAnnotations,
  type ResourceContext,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  type TemplateContext,
  type WireResource,
  type WireResourceTemplate,
} from './types.js';
import { compileUriTemplate } from './uri-template.js';

/**
 * Everything `defineResource` accepts: the `resources/list` entry (`uri` in any
 * scheme, `ui://` for MCP Apps; `_meta` also goes on the contents unless `read`
 * sets its own, and MCP Apps puts `ui` (csp, …) there) plus `read`.
 */
export interface ResourceConfig extends WireResource {
  /** Default for `ui://` URIs: `text/html;profile=mcp-app` (MCP Apps). */
  mimeType?: string;
  read: (ctx: ResourceContext) => ReadReturn | Promise<ReadReturn>;
}

/** Everything `defineResourceTemplate` accepts. */
export interface ResourceTemplateConfig {
  /** An RFC 6570 URI template, e.g. `file:///{+path}` or `users://{id}/profile`. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ResourceAnnotations;
  icons?: Icon[];
  _meta?: { [key: string]: unknown };
  /** Completion of template variables, by variable name. */
  complete?: Record<string, Completer>;
  /** Read one matching URI; `ctx.variables` holds the template's variables. */
  read: (ctx: TemplateContext) => ReadReturn | Promise<ReadReturn>;
  /** Optional: list the concrete resources the template stands for now (shown in `resources/list`). */
  list?: () => readonly WireResource[] | Promise<readonly WireResource[]>;
}

/**
 * Define a resource.
 *
 * @example
 * ```ts
 * const readme = defineResource({
 *   uri: 'docs://readme',
 *   name: 'readme',
 *   mimeType: 'text/markdown',
 *   read: () => '# Hello',
 * });
 * const view = defineResource({ uri: 'ui://weather/view', name: 'weather-view', read: () => html });
 * ```
 */
export function defineResource(config: ResourceConfig): ResourceDefinition {
  const where = `resource ${JSON.stringify(config?.uri ?? config?.name)}`;
  checkObject(config, 'defineResource');
  if (typeof config.uri !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(config.uri)) {
    throw new DefinitionError(`${where}: uri must be an absolute URI with a scheme, e.g. "docs://readme".`, {
      fields: ['uri'],
    });
  }
  checkCommon(where, config);
  const isApp = config.uri.startsWith('ui://');
  const mimeType = config.mimeType ?? (isApp ? MCP_APP_MIME_TYPE : undefined);
  if (isApp && mimeType !== MCP_APP_MIME_TYPE) {
    throw new DefinitionError(
      `${where}: a ui:// resource is an MCP Apps view and must use mimeType "${MCP_APP_MIME_TYPE}" (got "${mimeType}").`,
      { fields: ['mimeType'] },
    );
  }
  if (config.size !== undefined && !(Number.isInteger(config.size) && config.size >= 0)) {
    throw new DefinitionError(`${where}: size must be a non-negative integer (bytes).`, { fields: ['size'] });
  }
  const wire: WireResource = { uri: config.uri, name: config.name };
  copyOptional(wire, config, mimeType);
  if (config.size !== undefined) wire.size = config.size;
  return Object.freeze({
    kind: 'resource' as const,
    uri: config.uri,
    name: config.name,
    mimeType,
    wire: Object.freeze(wire),
    read: config.read,
  });
}

/**
 * Define a resource template.
 *
 * @example
 * ```ts
 * const user = defineResourceTemplate({
 *   uriTemplate: 'users://{id}/profile',
 *   name: 'user-profile',
 *   mimeType: 'application/json',
 *   complete: { id: (value) => ids.filter((id) => id.startsWith(value)) },
 *   read: ({ variables }) => JSON.stringify(profiles.get(String(variables.id))),
 * });
 * ```
 */
export function defineResourceTemplate(config: ResourceTemplateConfig): ResourceTemplateDefinition {
  checkObject(config, 'defineResourceTemplate');
  const where = `resource template ${JSON.stringify(config.uriTemplate ?? config.name)}`;
  checkCommon(where, config);
  const matcher = compileUriTemplate(config.uriTemplate);
  const complete = { ...config.complete };
  for (const [variable, fn] of Object.entries(complete)) {
    if (!matcher.variables.includes(variable)) {
      throw new DefinitionError(
        `${where}: complete.${variable} names no variable of the template (variables: ${matcher.variables.join(', ') || 'none'}).`,
        { fields: [`complete.${variable}`] },
      );
    }
    if (typeof fn !== 'function') {
      throw new DefinitionError(`${where}: complete.${variable} must be a function (value, context) => string[].`, {
        fields: [`complete.${variable}`],
      });
    }
  }
  if (config.list !== undefined && typeof config.list !== 'function') {
    throw new DefinitionError(`${where}: list must be a function returning resources.`, { fields: ['list'] });
  }
  const wire: WireResourceTemplate = { uriTemplate: config.uriTemplate, name: config.name };
  copyOptional(wire, config, config.mimeType);
  const definition: ResourceTemplateDefinition = {
    kind: 'resource-template',
    uriTemplate: config.uriTemplate,
    name: config.name,
    mimeType: config.mimeType,
    matcher,
    complete: Object.freeze(complete),
    wire: Object.freeze(wire),
    read: config.read,
    ...(config.list ? { list: config.list } : {}),
  };
  return Object.freeze(definition);
}

function checkObject(config: unknown, fn: string): void {
  if (typeof config !== 'object' || config === null) {
    throw new DefinitionError(`${fn} takes one options object.`);
  }
}

function checkCommon(
  where: string,
  config: { name: unknown; title?: unknown; description?: unknown; read: unknown; mimeType?: unknown },
): void {
  if (typeof config.name !== 'string' || config.name.length === 0) {
    throw new DefinitionError(`${where}: name must be a non-empty string.`, { fields: ['name'] });
  }
  for (const field of ['title', 'description', 'mimeType'] as const) {
    if (config[field] !== undefined && typeof config[field] !== 'string') {
      throw new DefinitionError(`${where}: ${field} must be a string.`, { fields: [field] });
    }
  }
  if (typeof config.read !== 'function') {
    throw new DefinitionError(`${where}: read must be a function returning the contents.`, { fields: ['read'] });
  }
}

function copyOptional(
  wire: WireResource | WireResourceTemplate,
  config: ResourceConfig | ResourceTemplateConfig,
  mimeType: string | undefined,
): void {
  if (config.title !== undefined) wire.title = config.title;
  if (config.description !== undefined) wire.description = config.description;
  if (mimeType !== undefined) wire.mimeType = mimeType;
  if (config.annotations !== undefined) wire.annotations = { ...config.annotations };
  if (config.icons !== undefined) wire.icons = config.icons.map((icon) => ({ ...icon }));
  if (config._meta !== undefined) wire._meta = { ...config._meta };
}
