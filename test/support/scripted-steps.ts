/**
 * Scripted model steps for the framework tests: each step is the tool calls
 * (or the text) the model answers with. Framework-neutral; each test turns
 * them into its framework's own mock model.
 */

/** One tool call of a step. */
export interface ScriptedCall {
  id: string;
  tool: string;
  args: Record<string, unknown>;
}

/** A step: tool calls, or a final text. */
export type ScriptedStep = ScriptedCall[] | string;

/** A tool call, briefly. */
export const toolCall = (id: string, tool: string, args: Record<string, unknown> = {}): ScriptedCall => ({
  id,
  tool,
  args,
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model answer for one scripted step, in the shape both mock models take. */
export function answer(step: ScriptedStep) {
  if (typeof step === 'string') {
    return {
      content: [{ type: 'text' as const, text: step }],
      finishReason: { unified: 'stop' as const, raw: undefined },
      usage,
      warnings: [],
    };
  }
  return {
    content: step.map((c) => ({
      type: 'tool-call' as const,
      toolCallId: c.id,
      toolName: c.tool,
      input: JSON.stringify(c.args),
    })),
    finishReason: { unified: 'tool-calls' as const, raw: undefined },
    usage,
    warnings: [],
  };
}

type Prompt = Array<{ role: string; content: unknown }>;
export interface Model {
  doGenerateCalls: Array<{ prompt: unknown }>;
}

/** What the model was shown for a tool call in its last request. */
export function modelSaw(model: Model, callId: string): string {
  const prompt = model.doGenerateCalls.at(-1)!.prompt as Prompt;
  const parts = prompt.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []));
  const part = parts.find((p) => p.type === 'tool-result' && p.toolCallId === callId);
  return JSON.stringify(part?.output ?? null);
}
