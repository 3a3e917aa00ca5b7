/**
 * `candor/ai-sdk`: the host's tools for the AI SDK (`ai` 6 and 7) —
 * `generateText`, `streamText` and agents.
 *
 * - `tools`, keyed by the host's API names, with candor's hints in `metadata.candor`
 *   (the AI SDK copies it onto tool calls and UI parts; it is not sent to the model).
 * - Approval through the AI SDK's own mechanism, decided by the host: `toolApproval`
 *   (ai 7) and each tool's `needsApproval` (ai 6). allow → no request; ask → a
 *   user-approval request with candor's reason; deny → denied without a pause, and
 *   the model reads why (ai 7: a denied tool output; ai 6: a tool error).
 * - A step's calls run as one host batch: reads overlap, writes one at a time in order.
 *
 * The input schemas are Standard Schemas with JSON Schema (both versions accept them),
 * so this module imports nothing from `ai` at run time.
 */
import { ToolError } from '../errors.js';
import type { Host } from '../host/host-api.js';
import {
  type AdapterOptions,
  type CandorToolMetadata,
  outcomeText,
  outcomeValue,
  type StandardJsonSchema,
  standardJsonSchema,
  ToolBridge,
  toolMetadata,
} from './tool-bridge.js';

/** Options of `toAiSdkTools`. */
export type AiSdkOptions = AdapterOptions;

/** What the AI SDK passes to `execute` and approval functions (the part candor reads). */
interface AiSdkCallOptions {
  toolCallId?: string;
  abortSignal?: AbortSignal;
}

/** The AI SDK's approval statuses candor answers with. */
export type AiSdkApprovalStatus =
  | { type: 'not-applicable' }
  | { type: 'user-approval'; reason: string }
  | { type: 'denied'; reason: string };

/** One AI SDK tool (a structural `Tool` of `ai` 6 and 7). */
export interface AiSdkTool {
  description: string;
  title: string;
  inputSchema: StandardJsonSchema;
  metadata: { candor: CandorToolMetadata };
  /** For `ai` 6 (ai 7 reads `toolApproval`, which takes precedence). */
  needsApproval: (input: unknown, options: AiSdkCallOptions) => Promise<boolean>;
  execute: (input: unknown, options: AiSdkCallOptions) => Promise<unknown>;
}

/** What `toAiSdkTools` returns. */
export interface AiSdkTools {
  /** Pass as `tools`. */
  tools: Record<string, AiSdkTool>;
  /** Pass as `toolApproval` (ai 7); merge with your own per-tool entries if you have other tools. */
  toolApproval: Record<string, (input: unknown, options: AiSdkCallOptions) => Promise<AiSdkApprovalStatus>>;
}

/**
 * The host's tools for the AI SDK.
 *
 * @example
 * ```ts
 * import { generateText, isStepCount } from 'ai';
 * import { toAiSdkTools } from 'candor/ai-sdk';
 *
 * const { tools, toolApproval } = toAiSdkTools(host);
 * const result = await generateText({ model, tools, toolApproval, prompt, stopWhen: isStepCount(5) });
 * ```
 */
export function toAiSdkTools(host: Host, options: AiSdkOptions = {}): AiSdkTools {
  const bridge = new ToolBridge(host, options);
  const tools: Record<string, AiSdkTool> = {};
  const toolApproval: AiSdkTools['toolApproval'] = {};
  for (const tool of bridge.tools()) {
    const name = tool.name;
    tools[tool.apiName] = {
      description: tool.description || tool.title,
      title: tool.title,
      inputSchema: standardJsonSchema(tool.inputSchema),
      metadata: { candor: toolMetadata(tool) },
      needsApproval: async (input, callOptions) => {
        // ai 6 has no "denied" answer: a denied call goes to execute, where the host refuses it and the model reads why.
        const { decision } = await bridge.decide(callOptions?.toolCallId, name, input);
        return decision === 'ask';
      },
      execute: async (input, callOptions) => {
        const outcome = await bridge.run(callOptions?.toolCallId, name, input, {
          approved: true,
          ...(callOptions?.abortSignal ? { signal: callOptions.abortSignal } : {}),
        });
        // A thrown error becomes the AI SDK's tool-error, which the model reads; the run goes on.
        if (outcome.status !== 'ok') throw new ToolError(outcomeText(outcome));
        return outcomeValue(outcome);
      },
    };
    toolApproval[tool.apiName] = async (input, callOptions) => {
      const { decision, reason } = await bridge.decide(callOptions?.toolCallId, name, input);
      if (decision === 'allow') return { type: 'not-applicable' };
      return decision === 'ask' ? { type: 'user-approval', reason } : { type: 'denied', reason };
    };
  }
  return { tools, toolApproval };
}

export type { AdapterOptions, CandorToolMetadata } from './tool-bridge.js';
