/**
 * The model-visible catalog as tool definitions for model APIs. Neither
 * OpenAI's function tools nor Anthropic's tools have a field for a title or
 * behaviour hints, so those go into the description only when the caller
 * asks (`describeHints: true`); the names are the catalog's API names, which
 * `host.run()` accepts.
 */
import type { JsonSchema } from '../tool/types.js';
import type { CatalogTool } from './types.js';

/** Options shared by the exporters. */
export interface ExportOptions {
  /** Append the title and the behaviour hints to the description (default false). */
  describeHints?: boolean;
}

/** An OpenAI Chat Completions function tool. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

/** An OpenAI Responses API function tool. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: false;
}

/** An Anthropic Messages API tool. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/**
 * OpenAI function tools (Chat Completions shape by default, `api: 'responses'` for the Responses API).
 *
 * @example
 * ```ts
 * const tools = toOpenAITools(host.tools());
 * await openai.chat.completions.create({ model, messages, tools });
 * ```
 */
export function toOpenAITools(
  tools: readonly CatalogTool[],
  options?: ExportOptions & { api?: 'chat' },
): OpenAIChatTool[];
export function toOpenAITools(
  tools: readonly CatalogTool[],
  options: ExportOptions & { api: 'responses' },
): OpenAIResponsesTool[];
export function toOpenAITools(
  tools: readonly CatalogTool[],
  options: ExportOptions & { api?: 'chat' | 'responses' } = {},
): Array<OpenAIChatTool | OpenAIResponsesTool> {
  return tools.map((tool) => {
    const description = describe(tool, options);
    const parameters = objectSchema(tool.inputSchema);
    if (options.api === 'responses') {
      // strict: false, because MCP schemas rarely meet strict mode's rules (every property required, no extras).
      return { type: 'function', name: tool.apiName, description, parameters, strict: false };
    }
    return { type: 'function', function: { name: tool.apiName, description, parameters } };
  });
}

/**
 * Anthropic Messages API tools.
 *
 * @example
 * ```ts
 * const tools = toAnthropicTools(host.tools(), { describeHints: true });
 * await anthropic.messages.create({ model, max_tokens: 1024, messages, tools });
 * ```
 */
export function toAnthropicTools(tools: readonly CatalogTool[], options: ExportOptions = {}): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.apiName,
    description: describe(tool, options),
    input_schema: objectSchema(tool.inputSchema),
  }));
}

function describe(tool: CatalogTool, options: ExportOptions): string {
  const base = tool.description || tool.title;
  if (!options.describeHints) return base;
  const { hints } = tool;
  const effect = hints.readOnlyHint
    ? 'read-only'
    : hints.destructiveHint
      ? 'destructive'
      : 'additive (not destructive)';
  const notes = [
    effect,
    !hints.readOnlyHint && hints.idempotentHint ? 'idempotent' : undefined,
    hints.openWorldHint ? 'open world' : 'closed world',
    tool.trust === 'trusted' ? undefined : 'hints unverified',
  ].filter((note) => note !== undefined);
  return `${tool.title}: ${base}\n\n(${notes.join('; ')})`;
}

/** Model APIs want an object schema at the root; MCP requires one for inputs, but be safe. */
function objectSchema(schema: JsonSchema): JsonSchema {
  return schema.type === 'object' ? schema : { type: 'object', properties: {} };
}
