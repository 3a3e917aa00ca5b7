/**
 * What every framework adapter shares: the host's model-visible
 * tools, candor's honest hints as plain JSON, decisions through `host.decide`,
 * approvals the framework got from the person bound to the pin hash they saw,
 * and calls gathered per step through the step batcher. One place decides,
 * the host; an adapter only translates.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { CandorError } from '../errors.js';
import type { Host } from '../host/host-api.js';
import { createStepBatcher, type StepBatcher } from '../host/step-batcher.js';
import type { CallApproval, CallDecision, CallOutcome, CatalogTool, RunOptions } from '../host/types.js';
import type { JsonSchema } from '../tool/types.js';

/** Options every adapter accepts. */
export interface AdapterOptions {
  /** Only these tools (namespaced or API names, or a predicate). Default: every tool `host.tools()` offers. */
  tools?: readonly string[] | ((tool: CatalogTool) => boolean);
  /** Run options for each step's batch (concurrency, timeout, `_meta`). */
  run?: Omit<RunOptions, 'signal'>;
}

/** candor's word on a tool, as JSON a framework can carry in its metadata (a type, so it is a JSON object). */
export type CandorToolMetadata = {
  /** Namespaced name (`server__tool`). */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  toolName: string;
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
  /** Whether the hints are vouched for (trusted server or the user's overrides). */
  trust: 'trusted' | 'untrusted';
  pinHash: string;
};

/** The JSON metadata of a catalog tool. */
export function toolMetadata(tool: CatalogTool): CandorToolMetadata {
  return {
    name: tool.name,
    server: tool.server,
    toolName: tool.toolName,
    title: tool.title,
    ...tool.hints,
    trust: tool.trust,
    pinHash: tool.hash,
  };
}

/** A question the host asked, kept until the framework runs the call. */
interface AskedCall {
  tool: string;
  args: string;
  pinHash: string;
}

/** Most approvals waiting for their call (a person who never answers must not grow memory without bound). */
const MAX_PENDING_APPROVALS = 1_000;

/**
 * The bridge between one set of framework tools and the host.
 *
 * @example
 * ```ts
 * const bridge = new ToolBridge(host, options);
 * const decision = await bridge.decide('call_1', 'fs__write_file', args); // records the pin hash if it asks
 * const outcome = await bridge.run('call_1', 'fs__write_file', args, { approved: true }); // carries that approval
 * ```
 */
export class ToolBridge {
  readonly host: Host;
  readonly #batcher: StepBatcher;
  readonly #options: AdapterOptions;
  readonly #asked = new Map<string, AskedCall>();

  constructor(host: Host, options: AdapterOptions = {}) {
    if (!host || typeof host.decide !== 'function' || typeof host.run !== 'function') {
      throw new CandorError('Pass a candor host (createHost from candor/host).', { code: 'invalid_adapter_options' });
    }
    this.host = host;
    this.#options = options;
    this.#batcher = createStepBatcher(host, options.run ? { run: options.run } : {});
  }

  /** The tools to offer the model: the host's model-visible, policy-offered tools (plan mode: read-only ones). */
  tools(): CatalogTool[] {
    const { tools } = this.#options;
    const offered = this.host.tools();
    if (tools === undefined) return offered;
    if (typeof tools === 'function') return offered.filter(tools);
    const wanted = new Set(tools);
    return offered.filter((tool) => wanted.has(tool.name) || wanted.has(tool.apiName));
  }

  /**
   * Decide a call the framework is about to make. When the host asks, the pin
   * hash is kept under the framework's call id, so the approval the framework
   * then gets is bound to the definition the person was asked about.
   */
  async decide(callId: string | undefined, tool: string, args: unknown): Promise<CallDecision> {
    const decision = await this.host.decide(tool, asArgs(args));
    const key = askedKey(callId, tool, args);
    const asked = this.#asked.get(key);
    // A framework may decide a call again when it resumes with the person's answer: the answer is
    // about the definition they were shown, so the first question's pin hash stays.
    if (asked && asked.tool === tool && asked.args === stableArgs(args)) return decision;
    this.#asked.delete(key);
    if (decision.decision === 'ask' && decision.pinHash !== undefined) {
      if (this.#asked.size >= MAX_PENDING_APPROVALS) this.#asked.delete(this.#asked.keys().next().value!);
      this.#asked.set(key, { tool, args: stableArgs(args), pinHash: decision.pinHash });
    }
    return decision;
  }

  /**
   * Run a call through the step batcher. `approved`: the framework got the
   * person's yes for this call id; the approval counts only for the same tool
   * and arguments the question was about.
   */
  run(
    callId: string | undefined,
    tool: string,
    args: unknown,
    options: { approved?: boolean; always?: boolean; signal?: AbortSignal } = {},
  ): Promise<CallOutcome> {
    let approval: CallApproval | undefined;
    // Frameworks whose approval hook sees no call id (Mastra) keep the question under the tool and arguments.
    const key = [askedKey(callId, tool, args), askedKey(undefined, tool, args)].find((k) => this.#asked.has(k));
    const asked = key === undefined ? undefined : this.#asked.get(key);
    if (asked && key !== undefined) {
      this.#asked.delete(key);
      if (options.approved !== false && asked.tool === tool && asked.args === stableArgs(args)) {
        approval = { pinHash: asked.pinHash, ...(options.always ? { always: true } : {}) };
      }
    }
    return this.#batcher.call(
      {
        ...(callId === undefined ? {} : { id: callId }),
        tool,
        args: asArgs(args),
        ...(approval ? { approval } : {}),
      },
      options.signal ? { signal: options.signal } : {},
    );
  }
}

/** A call's outcome as text for the model (errors and denials say why). */
export function outcomeText(outcome: CallOutcome): string {
  if (outcome.status === 'ok') {
    const text = resultText(outcome.result);
    return text ?? JSON.stringify(outcome.result?.structuredContent ?? outcome.result?.content ?? null);
  }
  const why = outcome.message ?? 'the call failed.';
  return outcome.status === 'denied' ? `Denied: ${why}` : `Error (${outcome.status}): ${why}`;
}

/** A successful call's value for frameworks that take JSON: structured content, else the text. */
export function outcomeValue(outcome: CallOutcome): unknown {
  const result = outcome.result;
  if (result?.structuredContent !== undefined) return result.structuredContent;
  return resultText(result) ?? result?.content ?? null;
}

/** The text blocks of a result, or undefined when it has other content too. */
function resultText(result: CallOutcome['result']): string | undefined {
  const content = result?.content;
  if (!Array.isArray(content)) return undefined;
  if (!content.every((block) => block?.type === 'text')) return undefined;
  return content.map((block) => (block as { text: string }).text).join('\n');
}

/** Where a question is kept: under the framework's call id, or under the tool and its arguments. */
function askedKey(callId: string | undefined, tool: string, args: unknown): string {
  return callId === undefined ? `call\n${tool}\n${stableArgs(args)}` : `id\n${callId}`;
}

function asArgs(args: unknown): Record<string, unknown> {
  // The model's input is checked by the host (it must be an object); undefined means no arguments.
  return (args ?? {}) as Record<string, unknown>;
}

function stableArgs(args: unknown): string {
  return JSON.stringify(args ?? {}, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/**
 * Import a framework the adapter needs, or fail naming the package to install.
 *
 * @example
 * ```ts
 * const agents = await requirePeer<typeof import('@openai/agents')>('@openai/agents', 'candor/openai-agents');
 * ```
 */
export async function requirePeer<T>(specifier: string, adapter: string, pkg = specifier): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(pkg)) {
      throw new CandorError(`${adapter} needs the package "${pkg}": npm install ${pkg}`, {
        code: 'missing_peer_dependency',
        cause: error,
      });
    }
    throw error;
  }
}

/** A Standard Schema that carries its JSON Schema (the AI SDK and Mastra both take one). */
export type StandardJsonSchema = StandardSchemaV1<Record<string, unknown>> &
  StandardJSONSchemaV1<Record<string, unknown>>;

/**
 * A tool's JSON Schema as a Standard Schema: the framework reads the JSON Schema;
 * only "is an object" is checked here, since the host and the server validate.
 *
 * @example
 * ```ts
 * const schema = standardJsonSchema(tool.inputSchema);
 * schema['~standard'].jsonSchema.input({ target: 'draft-07' }); // a copy of tool.inputSchema
 * ```
 */
export function standardJsonSchema(schema: JsonSchema): StandardJsonSchema {
  const root = schema.type === 'object' ? schema : { type: 'object', properties: {} };
  // A fresh copy each time: frameworks add keys to the schema they are given.
  const copy = () => structuredClone(root) as Record<string, unknown>;
  return {
    '~standard': {
      version: 1,
      vendor: 'candor',
      validate: (value: unknown) =>
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? { value: value as Record<string, unknown> }
          : { issues: [{ message: 'the tool input must be a JSON object' }] },
      jsonSchema: { input: copy, output: copy },
    },
  };
}
