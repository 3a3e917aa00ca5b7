/**
 * `candor/langchain`: the host's tools for LangChain.js 1.x agents
 * (`createAgent`), decided by the host.
 *
 * - `tools`: LangChain tools under the host's API names, with candor's hints in
 *   `metadata.candor`.
 * - `middleware`: LangChain's own human-in-the-loop middleware, whose question is
 *   the host's: a call the host would ask about interrupts the run (with candor's
 *   reason as the description), and the person's `approve` answers the host too,
 *   bound to the pin hash they were asked about (`onConfirm` is not asked). A call
 *   the host allows or denies does not interrupt: a denied one comes back to the
 *   model as a tool message that says why, and the run goes on.
 * - A step's calls run as one host batch: reads overlap, writes one at a time in order.
 *
 * Interrupts need a checkpointer (`createAgent({ checkpointer })`), as for any
 * human-in-the-loop middleware.
 */
import type { Host } from '../host/host-api.js';
import {
  type AdapterOptions,
  type CandorToolMetadata,
  outcomeText,
  requirePeer,
  ToolBridge,
  toolMetadata,
} from './tool-bridge.js';

const langchain = await requirePeer<typeof import('langchain')>('langchain', 'candor/langchain');

/** Options of `toLangChainTools`. */
export type LangChainOptions = AdapterOptions;

/** One LangChain tool made by candor. */
export type CandorLangChainTool = ReturnType<typeof langchain.tool> & { metadata: { candor: CandorToolMetadata } };

/** What `toLangChainTools` returns. */
export interface LangChainTools {
  /** Pass as `createAgent({ tools })`. */
  tools: CandorLangChainTool[];
  /** Pass in `createAgent({ middleware: [middleware] })`. */
  middleware: ReturnType<typeof langchain.humanInTheLoopMiddleware>;
}

/**
 * The host's tools and a human-in-the-loop middleware decided by the host.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { MemorySaver } from '@langchain/langgraph';
 * import { toLangChainTools } from 'candor/langchain';
 *
 * const { tools, middleware } = toLangChainTools(host);
 * const agent = createAgent({ model, tools, middleware: [middleware], checkpointer: new MemorySaver() });
 * ```
 */
export function toLangChainTools(host: Host, options: LangChainOptions = {}): LangChainTools {
  const bridge = new ToolBridge(host, options);
  const offered = bridge.tools();
  const tools = offered.map((tool) => {
    const name = tool.name;
    const made = langchain.tool(
      async (input: unknown, config?: { toolCall?: { id?: string }; signal?: AbortSignal }) => {
        const outcome = await bridge.run(config?.toolCall?.id, name, input, {
          approved: true,
          ...(config?.signal ? { signal: config.signal } : {}),
        });
        return outcomeText(outcome);
      },
      {
        name: tool.apiName,
        description: tool.description || tool.title,
        schema: (tool.inputSchema.type === 'object' ? tool.inputSchema : { type: 'object', properties: {} }) as Record<
          string,
          unknown
        >,
        metadata: { candor: toolMetadata(tool) },
      },
    );
    return made as CandorLangChainTool;
  });

  const interruptOn = Object.fromEntries(
    offered.map((tool) => [
      tool.apiName,
      {
        allowedDecisions: ['approve' as const, 'reject' as const],
        // The person reads candor's reason; the decision is the host's (allow and deny never pause).
        description: async (call: { id?: string; args: Record<string, unknown> }) =>
          (await host.decide(tool.name, call.args)).reason,
        when: async (request: { toolCall: { id?: string; args: Record<string, unknown> } }) =>
          (await bridge.decide(request.toolCall.id, tool.name, request.toolCall.args)).decision === 'ask',
      },
    ]),
  );
  const middleware = langchain.humanInTheLoopMiddleware({ interruptOn, descriptionPrefix: 'candor asks' });
  return { tools, middleware };
}

export type { AdapterOptions, CandorToolMetadata } from './tool-bridge.js';
