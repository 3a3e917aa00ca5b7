/**
 * Code mode: an endpoint that lists three tools instead of its tool list.
 * `search_tools` finds tools (the gateway's search), `tool_api` gives the typed
 * API of the chosen ones, and `run_script` runs a script that calls them
 * (script-run.ts). The tools a script may call are exactly those the endpoint
 * would list (its profile, the person's rules); the ordinary tools are neither
 * listed nor callable directly there.
 */
import { z } from 'zod';
import type { ToolScope } from '../../engine/engine.js';
import { CandorError } from '../../errors.js';
import { ScriptError } from '../../host/code-mode/script-error.js';
import { apiDeclarations } from '../../host/code-mode/typed-api.js';
import type { ScriptLimits } from '../../host/code-mode/types.js';
import type { Middleware, ToolSource } from '../../pipeline/types.js';
import { ToolRegistry } from '../../registry/registry.js';
import { defineTool } from '../../tool/define.js';
import type { ToolContext, ToolDefinition } from '../../tool/types.js';
import type { AuditEntry } from '../audit-log.js';
import { GATEWAY_META_KEY } from '../proxy-tool.js';
import { findToolsInput, firstLine, foundTool, hintSummary, searchCatalog } from '../tool-search.js';
import { runGatewayScript } from './script-run.js';
import type { CallTracer } from './script-tracing.js';

/** The names of code mode's tools. */
export const SEARCH_TOOLS = 'search_tools';
export const TOOL_API = 'tool_api';
export const RUN_SCRIPT = 'run_script';
export const CODE_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, TOOL_API, RUN_SCRIPT]);

const MAX_SCRIPT = 100_000;

// The same arguments as find_tools: it is the same search.
const searchInput = findToolsInput;
const apiInput = z.object({
  tools: z.array(z.string()).min(1).max(50).describe('Tool names, as search_tools returns them.'),
});
const runInput = z.object({
  code: z
    .string()
    .min(1)
    .max(MAX_SCRIPT)
    .describe(
      'JavaScript: the body of an async function. Call tools as `await tools.<name>({...})`; `return` the result.',
    ),
});

/** What code mode needs from the gateway. */
export interface CodeModeOptions {
  registry: ToolRegistry;
  /** The gateway's shared middleware (server rate limits, quotas), composed: script calls go through it too. */
  middleware: Middleware;
  limits?: ScriptLimits | undefined;
  record?: ((entry: AuditEntry) => void) | undefined;
  tracer?: () => CallTracer | undefined;
}

/**
 * Code mode for one endpoint.
 *
 * @example
 * ```ts
 * const code = new CodeMode({ registry, middleware: compose(shared) });
 * for (const def of code.definitions) registry.add(def);
 * createServer({ registry, toolScope: filteredScope({ keep, version, tools: registry, search: code }) });
 * ```
 */
export class CodeMode {
  readonly #options: CodeModeOptions;
  readonly #views = new WeakMap<ToolSource, CodeModeView>();
  /** The three tools as registered (their handlers are bound per view). */
  readonly definitions: readonly ToolDefinition[];

  constructor(options: CodeModeOptions) {
    this.#options = options;
    this.definitions = codeToolDefinitions();
  }

  /** The `toolScope` hook: the request's tools (profile, rules) become the script's tools. */
  readonly scope: ToolScope = (request) => {
    const base = request.info?.tools ?? this.#options.registry;
    let view = this.#views.get(base);
    if (view === undefined) {
      view = new CodeModeView(this.#bind(base), base);
      this.#views.set(base, view);
    }
    return view;
  };

  #bind(base: ToolSource): Map<string, ToolDefinition> {
    const { registry } = this.#options;
    const names = () => base.manifest().tools.flatMap((t) => (CODE_TOOL_NAMES.has(t.name) ? [] : [t.name]));
    const handlers: Record<string, (args: never, ctx: ToolContext) => unknown> = {
      [SEARCH_TOOLS]: (args: z.infer<typeof searchInput>) => {
        const tools = searchCatalog(registry, base, args).map((tool) => foundTool(tool, serverOf(tool)));
        const text =
          tools.length === 0
            ? `No tool matches ${JSON.stringify(args.query)}. Try other words.`
            : `${tools.length} found; get their API with ${TOOL_API}:\n${tools.map((t) => `- ${t.name} [${hintSummary(t.annotations)}]: ${firstLine(t.description)}`).join('\n')}`;
        return { content: [{ type: 'text', text }], structuredContent: { tools } };
      },
      [TOOL_API]: (args: z.infer<typeof apiInput>) => {
        const found = args.tools.flatMap((name) => {
          const tool = CODE_TOOL_NAMES.has(name) ? undefined : base.get(name);
          return tool ? [tool] : [];
        });
        const missing = args.tools.filter((name) => !found.some((t) => t.name === name));
        const declarations = apiDeclarations(
          found.map((t) => ({
            name: t.name,
            title: t.title,
            description: t.description,
            inputSchema: t.wire.inputSchema,
            outputSchema: t.wire.outputSchema,
            hints: t.hints,
          })),
        );
        const note = missing.length > 0 ? `\n// Not found here: ${missing.join(', ')} (use ${SEARCH_TOOLS}).\n` : '';
        return { content: [{ type: 'text', text: `${declarations}${note}` }] };
      },
      [RUN_SCRIPT]: async (args: z.infer<typeof runInput>, ctx: ToolContext) => {
        try {
          const out = await runGatewayScript({
            code: args.code,
            ctx,
            tools: base,
            names: names(),
            middleware: this.#options.middleware,
            limits: this.#options.limits,
            record: this.#options.record,
            tracer: this.#options.tracer?.(),
          });
          const parts = [out.json === undefined ? 'The script returned nothing.' : out.json];
          if (out.logs.length > 0) parts.push(`Console:\n${out.logs.join('\n')}`);
          return {
            content: [{ type: 'text', text: parts.join('\n\n') }],
            ...(out.json === undefined ? {} : { structuredContent: { result: JSON.parse(out.json) as unknown } }),
          };
        } catch (error) {
          if (!(error instanceof ScriptError)) throw error;
          return { isError: true, content: [{ type: 'text', text: `The script failed: ${error.message}` }] };
        }
      },
    };
    return new Map(
      this.definitions.map((def) => [def.name, { ...def, handler: handlers[def.name] } as ToolDefinition]),
    );
  }
}

function serverOf(tool: ToolDefinition): string | undefined {
  return (tool.meta?.[GATEWAY_META_KEY] as { server?: string } | undefined)?.server;
}

function codeToolDefinitions(): ToolDefinition[] {
  const unbound = () => {
    throw new CandorError('code mode tools run only through an endpoint in code mode', { code: 'internal' });
  };
  return [
    defineTool({
      name: SEARCH_TOOLS,
      title: 'Search tools',
      description: `Search the tools behind this gateway by what you want to do. Then get their typed API with ${TOOL_API} and call them from a script with ${RUN_SCRIPT}.`,
      input: searchInput,
      effect: 'read',
      world: 'closed',
      handler: unbound,
    }),
    defineTool({
      name: TOOL_API,
      title: 'Typed API of tools',
      description: `TypeScript declarations of the \`tools\` object for the named tools: arguments, results, and each tool's effects (read-only or writes, destructive or not) in its doc comment.`,
      input: apiInput,
      effect: 'read',
      world: 'closed',
      handler: unbound,
    }),
    defineTool({
      name: RUN_SCRIPT,
      title: 'Run a script',
      description: [
        'Run JavaScript (the body of an async function) in a sandbox that can reach only the tools of this gateway, as `await tools.<name>(args)`.',
        'A tool with an output schema resolves to its structured result, any other to its text; a failed call rejects.',
        'Filter and join results in the script and `return` only what matters (JSON); `console.log` is returned too.',
        'There is no network, file system, timers or require. Limits: CPU time, memory, a deadline, 64 KiB of output, 100 calls.',
        'Read-only calls run at once; the first call the gateway would ask a person about pauses the script and asks once, showing its plan.',
      ].join(' '),
      input: runInput,
      effect: 'destructive',
      world: 'open',
      handler: unbound,
    }),
  ] as unknown as ToolDefinition[];
}

/**
 * One endpoint's tools in code mode: a registry of the three tools bound to the tools the
 * request may reach (the three never change, so their list never does), and a message
 * that points at them for any other name.
 */
class CodeModeView extends ToolRegistry {
  readonly #base: ToolSource;

  constructor(tools: Map<string, ToolDefinition>, base: ToolSource) {
    // Their availability is the gateway's registry's (TOOL_<NAME>_DISABLED is read there).
    super({ env: {}, tools: [...tools.values()] });
    this.#base = base;
  }

  unknownToolMessage(name: string): string {
    if (this.#base.get(name) !== undefined)
      return `${name} is called from a script here (code mode): get its API with ${TOOL_API}, then call it in ${RUN_SCRIPT}.`;
    return `Unknown tool: ${name}. This gateway is in code mode: find tools with ${SEARCH_TOOLS}.`;
  }
}
