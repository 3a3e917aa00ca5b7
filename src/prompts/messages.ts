/** Normalising what a prompt's `get` returned into a `prompts/get` result. */
import type { GetPromptResult, PromptMessage, PromptReturn } from './types.js';

/**
 * @example
 * ```ts
 * toPromptResult('Hello'); // { messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] }
 * ```
 */
export function toPromptResult(value: PromptReturn, description?: string): GetPromptResult {
  let result: GetPromptResult;
  if (typeof value === 'string') {
    result = { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  } else if (Array.isArray(value)) {
    result = { messages: value.map(message) };
  } else if (typeof value === 'object' && value !== null && Array.isArray(value.messages)) {
    result = { ...value, messages: value.messages.map(message) };
  } else {
    throw new TypeError('a prompt must return a string, a list of messages or { messages }.');
  }
  if (result.description === undefined && description !== undefined) result.description = description;
  return result;
}

function message(m: PromptMessage | { role: 'user' | 'assistant'; content: string }): PromptMessage {
  if (typeof m !== 'object' || m === null || (m.role !== 'user' && m.role !== 'assistant')) {
    throw new TypeError('a prompt message needs role "user" or "assistant".');
  }
  if (typeof m.content === 'string') return { role: m.role, content: { type: 'text', text: m.content } };
  if (typeof m.content !== 'object' || m.content === null || typeof m.content.type !== 'string') {
    throw new TypeError('a prompt message needs content: a string or a content block.');
  }
  return m as PromptMessage;
}
