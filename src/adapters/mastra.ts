/**
 * `candor/mastra`: the host's tools for Mastra agents (`@mastra/core`), decided
 * by the host.
 *
 * - Tools keyed by the host's API names (made with Mastra's `createTool`), with
 *   candor's hints in `mcp.annotations` and `candor`.
 * - `requireApproval` asks the host per call: a call the host would ask about
 *   suspends the run for approval (`approveToolCall…` / `declineToolCall…`), and the
 *   person's approval answers the host too, bound to the pin hash they were asked
 *   about (`onConfirm` is not asked). A call the host denies does not suspend: it
 *   comes back to the model as an error that says why, and the run goes on.
 * - A step's calls run as one host batch: reads overlap, writes one at a time in order.
 *   Mastra itself runs a step's calls one at a time while any registered tool may need
 *   approval; `toolCallConcurrency: { limit: 8, strategy: 'called' }` lets a step of
 *   vouched reads (which carry no approval hook) run together.
 */
import { ToolError } from '../errors.js';
import type { Host } from '../host/host-api.js';
import {
  type AdapterOptions,
  type CandorToolMetadata,
  outcomeText,
  outcomeValue,
  requirePeer,
  standardJsonSchema,
  ToolBridge,
  toolMetadata,
} from './tool-bridge.js';

const mastra = await requirePeer<typeof import('@mastra/core/tools')>(
  '@mastra/core/tools',
  'candor/mastra',
  '@mastra/core',
);

/** Options of `toMastraTools`. */
export type MastraOptions = AdapterOptions;

/** One Mastra tool made by candor. */
export type CandorMastraTool = ReturnType<typeof mastra.createTool> & { candor: CandorToolMetadata };

/**
 * The host's tools for a Mastra agent.
 *
 * @example
 * ```ts
 * import { Agent } from '@mastra/core/agent';
 * import { toMastraTools } from 'candor/mastra';
 *
 * const agent = new Agent({ id: 'notes', name: 'notes', instructions: '…', model, tools: toMastraTools(host) });
 * const output = await agent.generate('tidy my notes');
 * if (output.finishReason === 'suspended') await agent.approveToolCallGenerate({ runId: output.runId });
 * ```
 */
export function toMastraTools(host: Host, options: MastraOptions = {}): Record<string, CandorMastraTool> {
  const bridge = new ToolBridge(host, options);
  const tools: Record<string, CandorMastraTool> = {};
  for (const tool of bridge.tools()) {
    const name = tool.name;
    const made = mastra.createTool({
      id: tool.apiName,
      description: tool.description || tool.title,
      inputSchema: standardJsonSchema(tool.inputSchema),
      mcp: { annotations: { title: tool.title, ...tool.hints } },
      // Mastra runs a step's calls one by one when any of them may need approval, so a vouched read (which the
      // host allows) carries no approval hook; should the host ask about it after all, it asks through onConfirm.
      // Mastra's hook sees the input, not the call id: the bridge keys the question by tool and input.
      ...(tool.hints.readOnlyHint && tool.trust === 'trusted'
        ? {}
        : {
            requireApproval: async (input: unknown) => (await bridge.decide(undefined, name, input)).decision === 'ask',
          }),
      execute: async (input: unknown, context?: { agent?: { toolCallId?: string }; abortSignal?: AbortSignal }) => {
        const outcome = await bridge.run(context?.agent?.toolCallId, name, input, {
          approved: true,
          ...(context?.abortSignal ? { signal: context.abortSignal } : {}),
        });
        // A thrown error becomes Mastra's tool error, which the model reads; the run goes on.
        if (outcome.status !== 'ok') throw new ToolError(outcomeText(outcome));
        return outcomeValue(outcome);
      },
    });
    tools[tool.apiName] = Object.assign(made, { candor: toolMetadata(tool) });
  }
  return tools;
}

export type { AdapterOptions, CandorToolMetadata } from './tool-bridge.js';
