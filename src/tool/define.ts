/**
 * `defineTool` and `BaseTool`: two ways to write a tool, one plain-data
 * `ToolDefinition` out. All checks happen here, at definition time.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { DefinitionError } from '../errors.js';
import { resolveBehaviour } from './effects.js';
import { inferEffects } from './infer.js';
import { assertToolName } from './name.js';
import { compileSchema, type SchemaInput } from './schema.js';
import { intern } from './schema-cache.js';
import { resolveTitle } from './title.js';
import type {
  Declaration,
  Effect,
  HandlerReturn,
  HintName,
  HintSource,
  Inference,
  RateLimit,
  TaskSupport,
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolHandler,
  ToolUi,
  World,
} from './types.js';
import { buildWireTool } from './wire.js';

/** The arguments type a schema validates to. */
export type ArgsOf<S> = [S] extends [undefined]
  ? Record<string, never>
  : S extends StandardSchemaV1<unknown, infer Out>
    ? Out
    : Record<string, unknown>;

/** Everything `defineTool` accepts. One object; every option is a key. */
export interface ToolConfig<S extends SchemaInput | undefined = SchemaInput | undefined> {
  /** Unique per server; must match `^[A-Za-z0-9._-]{1,128}$`. */
  name: string;
  /** Human-readable name; derived from `name` when absent ("read_file" → "Read File"). */
  title?: string;
  description: string;
  /** Arguments schema: zod 4 (or any Standard Schema with JSON Schema support) or a JSON Schema object. */
  input?: S;
  /** Structured result schema; results are validated against it. */
  output?: SchemaInput;
  /** What the tool does: `read`, `additive` (creates, appends, sends) or `destructive` (deletes, overwrites). */
  effect?: Effect;
  /** `closed` (its own data only) or `open` (web, third-party APIs, other people). */
  world?: World;
  /** Whether repeating the call with the same arguments has no additional effect (non-read tools). */
  idempotent?: boolean;
  /** Seed style: raw hints, resolved against the spec defaults. */
  annotations?: ToolAnnotations;
  tags?: readonly string[];
  category?: string;
  /** MCP Apps: becomes `_meta.ui`. */
  ui?: ToolUi;
  /** Per-tool limit, enforced by the call pipeline. */
  rateLimit?: RateLimit;
  /** Per-tool timeout in milliseconds (the pipeline's default is 30 s). */
  timeoutMs?: number;
  /**
   * OAuth scopes a caller needs for this tool when the server has `auth`
   * (all of them). Default: derived from `effect` (`tools:read`, `tools:write`,
   * `tools:destructive`); the server's `auth.scopes` overrides this.
   */
  scopes?: readonly string[];
  /** Extra `_meta` for the wire tool (reverse-DNS keys). */
  meta?: Record<string, unknown>;
  /**
   * Run as an MCP task: `optional` (the client chooses), `required` (only as a
   * task) or `forbidden` (the default). A task answers at once with a task
   * handle; the handler runs in the background and the client polls for the
   * result (see README, "Tasks"). The tool's `timeoutMs` still applies.
   */
  task?: TaskSupport | 'forbidden';
  /**
   * With `task`: the handler asks its questions first and calls
   * `ctx.becomeTask()` when they are answered. In the 2026-07-28 era with the
   * tasks extension, the call is then plain until that point (questions go out
   * as `input_required` rounds) and is answered with the task there (SEP-2663,
   * "MRTR → tasks"). Elsewhere the call is a task from the start, as without it.
   */
  asksBeforeTask?: boolean;
  /** Fill in undeclared behaviour from the name's words (marked as inferred). Off by default. */
  infer?: boolean;
  handler: ToolHandler<ArgsOf<S>>;
}

/**
 * Define a tool. Declare its effects; the four MCP hints follow, explicitly.
 *
 * @example
 * ```ts
 * const readFile = defineTool({
 *   name: 'read_file',
 *   description: 'Read a UTF-8 text file inside the workspace.',
 *   input: z.object({ path: z.string() }),
 *   effect: 'read',
 *   world: 'closed',
 *   handler: async ({ path }) => fs.readFile(path, 'utf8'),
 * });
 * readFile.wire.annotations; // { title: 'Read File', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
 * ```
 */
export function defineTool<S extends SchemaInput | undefined = undefined>(
  config: ToolConfig<S>,
): ToolDefinition<ArgsOf<S>> {
  if (typeof config !== 'object' || config === null) {
    throw new DefinitionError(
      'defineTool expects one options object: { name, description, input, effect, world, handler }.',
    );
  }
  const { name } = config;
  assertToolName(name);
  const where = `tool "${name}"`;
  if (typeof config.handler !== 'function') {
    throw new DefinitionError(`${where}: handler must be a function (args, ctx) => result.`, { fields: ['handler'] });
  }
  if (config.description !== undefined && typeof config.description !== 'string') {
    throw new DefinitionError(`${where}: description must be a string.`, { fields: ['description'] });
  }
  const tags = normaliseTags(where, config.tags);
  if (config.category !== undefined && (typeof config.category !== 'string' || config.category.trim() === '')) {
    throw new DefinitionError(`${where}: category must be a non-empty string.`, { fields: ['category'] });
  }
  checkLimits(where, config.rateLimit, config.timeoutMs);
  checkUi(where, config.ui);
  const task = checkTask(where, config.task);
  if (config.asksBeforeTask !== undefined && typeof config.asksBeforeTask !== 'boolean') {
    throw new DefinitionError(`${where}: asksBeforeTask must be true or false.`, { fields: ['asksBeforeTask'] });
  }
  if (config.asksBeforeTask === true && task === undefined) {
    throw new DefinitionError(`${where}: asksBeforeTask needs task: 'optional' or 'required'.`, {
      fields: ['asksBeforeTask', 'task'],
    });
  }
  const asksBeforeTask = config.asksBeforeTask === true;
  // RFC 6749 §3.3 scope-tokens: they go into WWW-Authenticate headers as they are.
  if (
    config.scopes !== undefined &&
    (!Array.isArray(config.scopes) ||
      !config.scopes.every((s) => typeof s === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s)))
  ) {
    throw new DefinitionError(
      `${where}: scopes must be a list of OAuth scope tokens (printable, no spaces or quotes).`,
      {
        fields: ['scopes'],
      },
    );
  }
  if (config.annotations?.title !== undefined && typeof config.annotations.title !== 'string') {
    throw new DefinitionError(`${where}: annotations.title must be a string.`, { fields: ['annotations.title'] });
  }

  let behaviour = resolveBehaviour(name, config);
  let declaration: Declaration = behaviour.undeclared
    ? 'undeclared'
    : config.effect !== undefined
      ? 'effects'
      : 'annotations';
  let inference: Inference | undefined;
  if (behaviour.undeclared && config.infer === true) {
    inference = inferEffects(name, config.description);
    const inferred = resolveBehaviour(name, {
      effect: inference.effect,
      world: inference.world,
      idempotent: inference.effect === 'read' ? undefined : inference.idempotent,
    });
    const sources = {} as Record<HintName, HintSource>;
    for (const h of Object.keys(inferred.sources) as HintName[]) sources[h] = 'inferred';
    behaviour = { ...inferred, sources };
    declaration = 'inferred';
  }

  const { title, source: titleSource } = resolveTitle(name, config.title, config.annotations?.title);
  const input = compileSchema<ArgsOf<S>>(name, 'input', config.input as SchemaInput<ArgsOf<S>> | undefined);
  const output = config.output === undefined ? undefined : compileSchema(name, 'output', config.output);
  const description = config.description ?? '';

  const wire = buildWireTool({
    name,
    title,
    description,
    inputSchema: input.jsonSchema,
    outputSchema: output?.jsonSchema,
    hints: behaviour.hints,
    hintSources: behaviour.sources,
    declaration,
    inference,
    tags,
    category: config.category,
    ui: config.ui,
    meta: config.meta,
    task,
  });

  // Every key is present (undefined when unused) so all definitions share one
  // shape: the engine's hot path reads them without megamorphic lookups.
  const definition: ToolDefinition<ArgsOf<S>> = {
    kind: 'tool',
    name,
    title,
    titleSource,
    description,
    effect: behaviour.effect,
    world: behaviour.world,
    idempotent: behaviour.idempotent,
    // Interned: a handful of combinations exist, so 10,000 tools share them.
    hints: intern({
      readOnlyHint: behaviour.hints.readOnlyHint,
      destructiveHint: behaviour.hints.destructiveHint,
      idempotentHint: behaviour.hints.idempotentHint,
      openWorldHint: behaviour.hints.openWorldHint,
    }) as ToolDefinition['hints'],
    hintSources: intern({ ...behaviour.sources }) as ToolDefinition['hintSources'],
    declaration,
    inference,
    tags,
    category: config.category,
    ui: config.ui ? Object.freeze({ ...config.ui }) : undefined,
    rateLimit: config.rateLimit ? Object.freeze({ ...config.rateLimit }) : undefined,
    timeoutMs: config.timeoutMs,
    scopes: config.scopes ? Object.freeze([...config.scopes]) : undefined,
    task,
    asksBeforeTask,
    input,
    output,
    handler: config.handler,
    meta: config.meta ? Object.freeze({ ...config.meta }) : undefined,
    wire: Object.freeze(wire),
  };
  return Object.freeze(definition);
}

const NO_TAGS: readonly string[] = Object.freeze([]);

function normaliseTags(where: string, tags: readonly string[] | undefined): readonly string[] {
  if (tags === undefined) return NO_TAGS;
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string' || t.trim() === '')) {
    throw new DefinitionError(`${where}: tags must be an array of non-empty strings.`, { fields: ['tags'] });
  }
  return Object.freeze([...new Set(tags)]);
}

function checkLimits(where: string, rateLimit: RateLimit | undefined, timeoutMs: number | undefined): void {
  if (rateLimit !== undefined) {
    const ok =
      typeof rateLimit === 'object' &&
      Number.isInteger(rateLimit.max) &&
      rateLimit.max > 0 &&
      Number.isFinite(rateLimit.windowMs) &&
      rateLimit.windowMs > 0;
    if (!ok) {
      throw new DefinitionError(`${where}: rateLimit must be { windowMs: number > 0, max: integer > 0 }.`, {
        fields: ['rateLimit'],
      });
    }
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new DefinitionError(`${where}: timeoutMs must be a positive number of milliseconds.`, {
      fields: ['timeoutMs'],
    });
  }
}

function checkTask(where: string, task: ToolConfig['task']): TaskSupport | undefined {
  if (task === undefined || task === 'forbidden') return undefined;
  if (task === 'optional' || task === 'required') return task;
  throw new DefinitionError(
    `${where}: task must be 'optional', 'required' or 'forbidden'; got ${JSON.stringify(task)}.`,
    {
      fields: ['task'],
    },
  );
}

function checkUi(where: string, ui: ToolUi | undefined): void {
  if (ui === undefined) return;
  if (ui.resourceUri !== undefined && (typeof ui.resourceUri !== 'string' || !ui.resourceUri.startsWith('ui://'))) {
    throw new DefinitionError(
      `${where}: ui.resourceUri must be a ui:// URI (MCP Apps); got ${JSON.stringify(ui.resourceUri)}.`,
      {
        fields: ['ui.resourceUri'],
      },
    );
  }
  if (ui.visibility !== undefined) {
    const ok = Array.isArray(ui.visibility) && ui.visibility.every((v) => v === 'model' || v === 'app');
    if (!ok) {
      throw new DefinitionError(`${where}: ui.visibility must be an array of 'model' and/or 'app'.`, {
        fields: ['ui.visibility'],
      });
    }
  }
}

/**
 * The class style, for those who prefer it. Produces the same `ToolDefinition`
 * as `defineTool` (via {@link BaseTool.toDefinition} or by passing the instance to
 * a registry).
 *
 * @example
 * ```ts
 * class Echo extends BaseTool<{ text: string }> {
 *   name = 'echo';
 *   description = 'Echo the text back.';
 *   annotations = { readOnlyHint: true, openWorldHint: false };
 *   inputSchema = z.object({ text: z.string() });
 *   execute({ text }) { return text; }
 * }
 * ```
 */
export abstract class BaseTool<Args = Record<string, unknown>> {
  abstract readonly name: string;
  abstract readonly description: string;
  readonly title?: string;
  readonly annotations?: ToolAnnotations;
  readonly inputSchema?: SchemaInput;
  readonly outputSchema?: SchemaInput;
  readonly effect?: Effect;
  readonly world?: World;
  readonly idempotent?: boolean;
  readonly tags?: readonly string[];
  readonly category?: string;
  readonly ui?: ToolUi;
  readonly rateLimit?: RateLimit;
  readonly timeoutMs?: number;
  readonly scopes?: readonly string[];
  readonly task?: TaskSupport | 'forbidden';
  readonly asksBeforeTask?: boolean;

  abstract execute(input: Args, ctx: ToolContext<Args>): HandlerReturn | Promise<HandlerReturn>;

  /** The plain-data definition of this tool. */
  toDefinition(): ToolDefinition<Args> {
    return defineTool({
      name: this.name,
      title: this.title,
      description: this.description,
      input: this.inputSchema,
      output: this.outputSchema,
      effect: this.effect,
      world: this.world,
      idempotent: this.idempotent,
      annotations: this.annotations,
      tags: this.tags,
      category: this.category,
      ui: this.ui,
      rateLimit: this.rateLimit,
      timeoutMs: this.timeoutMs,
      scopes: this.scopes,
      task: this.task,
      asksBeforeTask: this.asksBeforeTask,
      handler: (args, ctx) => this.execute(args as Args, ctx as unknown as ToolContext<Args>),
    }) as unknown as ToolDefinition<Args>;
  }
}

/** Anything that can be registered as a tool. */
export type ToolLike = ToolDefinition | BaseTool<any>;

/** The plain definition of a `defineTool` result or a `BaseTool` instance. */
export function toToolDefinition(tool: ToolLike): ToolDefinition {
  if (tool instanceof BaseTool) return tool.toDefinition();
  if (typeof tool === 'object' && tool !== null && (tool as ToolDefinition).kind === 'tool' && 'wire' in tool) {
    return tool as ToolDefinition;
  }
  throw new DefinitionError(
    'Expected a tool made by defineTool(...) or an instance of a BaseTool subclass; got ' +
      (typeof tool === 'object' && tool !== null
        ? `an object with keys ${Object.keys(tool).join(', ')}`
        : typeof tool) +
      '.',
  );
}
