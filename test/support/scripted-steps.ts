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
