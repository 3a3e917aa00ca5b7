/**
 * Code mode: an endpoint that lists a few tools instead of its tool list.
 * `search_tools` finds tools (the gateway's search), `tool_api` gives the typed
 * API of the chosen ones, `run_script` runs a script that calls them
 * (script-run.ts), and `save_script` stores a script under a name, after which
 * it is listed as a tool of its own (stored-tools.ts). The tools a script may call
 * are exactly those the endpoint would list (its profile, the person's rules); the
 * ordinary tools are neither listed nor callable directly there.
 */
import { z } from 'zod';
import type { ToolScope } from '../../engine/engine.js';
import { CandorError, isCandorError } from '../../errors.js';
import { ScriptError } from '../../host/code-mode/script-error.js';
import { apiDeclarations } from '../../host/code-mode/typed-api.js';
import type { ScriptLimits } from '../../host/code-mode/types.js';
import { pinHash } from '../../host/pins/pin-hash.js';
import type { Middleware, ToolSource } from '../../pipeline/types.js';
import type { ToolRegistry } from '../../registry/registry.js';
import { defineTool } from '../../tool/define.js';
import type { CallToolResult, ToolContext, ToolDefinition } from '../../tool/types.js';
import type { AuditEntry } from '../audit-log.js';
import { GATEWAY_META_KEY } from '../proxy-tool.js';
import { findToolsInput, firstLine, foundTool, hintSummary, searchCatalog } from '../tool-search.js';
import { CodeModeView } from './code-mode-view.js';
import { runGatewayScript } from './script-run.js';
import { MAX_SCRIPT_CHARS, type ScriptStore } from './script-store.js';
import type { CallTracer } from './script-tracing.js';
import { storedTool } from './stored-tools.js';

/** The names of code mode's tools. */
export const SEARCH_TOOLS = 'search_tools';
export const TOOL_API = 'tool_api';
export const RUN_SCRIPT = 'run_script';
export const SAVE_SCRIPT = 'save_script';
export const CODE_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, TOOL_API, RUN_SCRIPT, SAVE_SCRIPT]);

const MAX_SCRIPT = MAX_SCRIPT_CHARS;

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
const saveInput = z.object({
  name: z
    .string()
    .describe('The name it is listed under: letters, digits, "_" and "-", starting with a letter (not taken).'),
  description: z.string().describe('What it does and returns, for whoever calls it.'),
  code: runInput.shape.code,
});

/** What code mode needs from the gateway. */
export interface CodeModeOptions {
  registry: ToolRegistry;
  /** The gateway's shared middleware (server rate limits, quotas), composed: script calls go through it too. */
  middleware: Middleware;
  limits?: ScriptLimits | undefined;
  record?: ((entry: AuditEntry) => void) | undefined;
  tracer?: () => CallTracer | undefined;
  /** The stored scripts; without it nothing can be saved or listed. */
  store?: ScriptStore | undefined;
  /** Changes whenever the gateway's tools may have changed (the registry's version, with the rules'). */
  version?: () => number | string;
  /** A tool's pin (the host catalog's hash); default the hash of its listed definition. */
  pinOf?: (tool: ToolDefinition) => string;
}

/**
 * Code mode for the gateway's endpoints.
 *
 * @example
 * ```ts
 * const code = new CodeMode({ registry, middleware: compose(shared), store });
 * for (const def of code.definitions) registry.add(def);
 * createServer({ registry, toolScope: filteredScope({ keep, version, tools: registry, search: code.scopeFor(limits) }) });
 * ```
 */
export class CodeMode {
  readonly #options: CodeModeOptions;
  /** Code mode's own tools as registered (their handlers are bound per view). */
  readonly definitions: readonly ToolDefinition[];
  /** The `toolScope` hook with the gateway's limits. */
  readonly scope: ToolScope;

  constructor(options: CodeModeOptions) {
    this.#options = options;
    this.definitions = codeToolDefinitions();
    this.scope = this.scopeFor(options.limits).scope;
  }

  /** The `toolScope` hook of an endpoint whose scripts run under `limits`: the request's tools (profile, rules) become the script's tools. */
  scopeFor(limits: ScriptLimits | undefined): { scope: ToolScope } {
    const views = new WeakMap<ToolSource, CodeModeView>();
    return {
      scope: (request) => {
        const base = request.info?.tools ?? this.#options.registry;
        let view = views.get(base);
        if (view === undefined) {
          view = this.#view(base, limits);
          views.set(base, view);
        }
        return view;
      },
    };
  }

  #view(base: ToolSource, limits: ScriptLimits | undefined): CodeModeView {
    const { registry, store } = this.#options;
    const names = () => base.manifest().tools.flatMap((t) => (CODE_TOOL_NAMES.has(t.name) ? [] : [t.name]));
    const runScript = async (code: string, offered: readonly string[], ctx: ToolContext): Promise<CallToolResult> => {
      try {
        const out = await runGatewayScript({
          code,
          ctx,
          tools: base,
          names: offered,
          middleware: this.#options.middleware,
          limits,
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
    };
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
      [RUN_SCRIPT]: (args: z.infer<typeof runInput>, ctx: ToolContext) => runScript(args.code, names(), ctx),
      [SAVE_SCRIPT]: async (args: z.infer<typeof saveInput>) => {
        if (store === undefined) throw new CandorError('code mode has no script store', { code: 'internal' });
        try {
          const saved = await store.save(args, 'model');
          const listed = view.get(saved.name);
          const hints = listed ? hintSummary({ ...listed.hints }) : 'not listed here';
          return {
            content: [
              {
                type: 'text',
                text: `Saved. It is listed as the tool ${saved.name} [${hints}]${store.file === undefined ? ' until the gateway stops' : ''}.`,
              },
            ],
          };
        } catch (error) {
          if (!isCandorError(error)) throw error;
          return { isError: true, content: [{ type: 'text', text: error.message }] };
        }
      },
    };
    const own = new Map(
      this.definitions.map((def) => [def.name, { ...def, handler: handlers[def.name] } as ToolDefinition]),
    );
    const version = this.#options.version ?? (() => registry.version);
    const pinOf =
      this.#options.pinOf ??
      ((tool: ToolDefinition) => pinHash({ ...tool.wire, annotations: { ...tool.wire.annotations } }));
    const view: CodeModeView = new CodeModeView({
      own,
      base,
      version: () => `${version()}/${store?.generation ?? 0}`,
      stored: () => {
        if (store === undefined) return [];
        const offered = names();
        return store.list().map((script) => storedTool(script, { base, names: offered, pinOf, run: runScript }));
      },
      message: (name) => {
        if (base.get(name) !== undefined)
          return `${name} is called from a script here (code mode): get its API with ${TOOL_API}, then call it in ${RUN_SCRIPT}.`;
        return `Unknown tool: ${name}. This gateway is in code mode: find tools with ${SEARCH_TOOLS}.`;
      },
    });
    return view;
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
        'There is no network, file system, timers or require. Limits: CPU time, memory, a deadline, output size and the number of calls.',
        'Read-only calls run at once; the first call the gateway would ask a person about pauses the script and asks once, showing its plan.',
      ].join(' '),
      input: runInput,
      effect: 'destructive',
      world: 'open',
      handler: unbound,
    }),
    defineTool({
      name: SAVE_SCRIPT,
      title: 'Save a script',
      description: [
        `Store a script under a name not taken, with a description; it is then listed here as a tool of its own, run as ${RUN_SCRIPT} runs it.`,
        'Its hints are derived from the tools it calls (read-only only if every call is); a script that reaches tools by computed names is listed as destructive and open world.',
        'Saving runs nothing and replaces nothing.',
      ].join(' '),
      input: saveInput,
      effect: 'additive',
      world: 'closed',
      handler: unbound,
    }),
  ] as unknown as ToolDefinition[];
}
