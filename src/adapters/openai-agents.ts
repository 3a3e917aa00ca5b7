/**
 * `candor/openai-agents`: the host's tools for the OpenAI Agents SDK
 * (`@openai/agents` 0.20), decided by the host.
 *
 * - `needsApproval` asks the host: a call the host would ask about interrupts the
 *   run (`result.interruptions`), and the person's `state.approve()` answers the
 *   host too, bound to the pin hash they were asked about (`onConfirm` is not asked).
 * - A call the host denies is refused by a tool input guardrail (`rejectContent`):
 *   the model reads why and the run goes on.
 * - `isEnabled`: only while the host still offers the tool (plan mode offers read-only ones).
 * - A turn's calls run as one host batch: reads overlap, writes one at a time in order.
 *
 * A call to a tool the host does not offer (plan mode) is an error the model reads
 * when the run is started with `toolNotFoundBehavior: 'return_error_to_model'`.
 */
import type { FunctionTool } from '@openai/agents';
import type { Host } from '../host/host-api.js';
import {
  type AdapterOptions,
  type CandorToolMetadata,
  outcomeText,
  requirePeer,
  ToolBridge,
  toolMetadata,
} from './tool-bridge.js';

const agents = await requirePeer<typeof import('@openai/agents')>('@openai/agents', 'candor/openai-agents');

/** A function tool with candor's word on it (`candor`: hints, trust, pin hash; never sent to the model). */
export type CandorFunctionTool = FunctionTool<unknown, any, string> & { candor: CandorToolMetadata };

/** Options of `toOpenAIAgentsTools`. */
export type OpenAIAgentsOptions = AdapterOptions;

/**
 * The host's tools as OpenAI Agents function tools.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { toOpenAIAgentsTools } from 'candor/openai-agents';
 *
 * const agent = new Agent({ name: 'notes', instructions: '…', tools: toOpenAIAgentsTools(host) });
 * let result = await run(agent, 'tidy my notes', { toolNotFoundBehavior: 'return_error_to_model' });
 * for (const item of result.interruptions) result.state.approve(item); // after asking the person
 * result = await run(agent, result.state);
 * ```
 */
export function toOpenAIAgentsTools(host: Host, options: OpenAIAgentsOptions = {}): CandorFunctionTool[] {
  const bridge = new ToolBridge(host, options);
  return bridge.tools().map((tool) => {
    const name = tool.name;
    const description = tool.description || tool.title;
    // The tool's own JSON Schema, as is: the host and the server validate (the SDK's type wants these keys).
    const parameters = {
      required: [],
      ...(tool.inputSchema.type === 'object' ? tool.inputSchema : { type: 'object', properties: {} }),
    } as unknown as {
      type: 'object';
      properties: Record<string, never>;
      required: never[];
      additionalProperties: true;
    };
    const functionTool = agents.tool({
      name: tool.apiName,
      description,
      // MCP schemas rarely meet strict mode's rules (every property required, no extras).
      parameters,
      strict: false,
      needsApproval: async (_context, input, callId) => (await bridge.decide(callId, name, input)).decision === 'ask',
      isEnabled: () => host.tools().some((offered) => offered.name === name),
      inputGuardrails: [
        agents.defineToolInputGuardrail({
          name: 'candor',
          run: async ({ toolCall }) => {
            const decision = await host.decide(name, parseArguments(toolCall.arguments));
            return decision.decision === 'deny'
              ? agents.ToolGuardrailFunctionOutputFactory.rejectContent(`Denied: ${decision.reason}`)
              : agents.ToolGuardrailFunctionOutputFactory.allow();
          },
        }),
      ],
      execute: async (input, _context, details) => {
        const outcome = await bridge.run(details?.toolCall?.callId, name, input, {
          approved: true,
          ...(details?.signal ? { signal: details.signal } : {}),
        });
        return outcomeText(outcome);
      },
    });
    // Beside the tool, not in providerData: that goes to the model provider's API.
    return Object.assign(functionTool, { candor: toolMetadata(tool) });
  });
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text || '{}') as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export type { AdapterOptions, CandorToolMetadata } from './tool-bridge.js';
