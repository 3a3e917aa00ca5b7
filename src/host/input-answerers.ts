/**
 * The handlers a client answers a server's questions with (elicitation, sampling,
 * roots), kept per SDK client so they can also answer the questions a 2026-07-28
 * task asks through `tasks/get` (`input_required`), which the SDK client does not
 * route to its request handlers.
 */
import type { Client } from '@modelcontextprotocol/client';

/** Answers one question (`{ method, params }`) with the result the request would get. */
export type InputAnswerer = (request: { method: string; params?: unknown }) => Promise<unknown>;

const byClient = new WeakMap<Client, Map<string, InputAnswerer>>();

/**
 * Register `answer` for `method` on `client`, both as its request handler and for task questions.
 *
 * @example
 * ```ts
 * answerInputWith(client, 'elicitation/create', async (request) => ({ action: 'decline' }));
 * ```
 */
export function answerInputWith(client: Client, method: string, answer: InputAnswerer): void {
  client.setRequestHandler(
    method as never,
    ((request: { method: string; params?: unknown }) => answer(request)) as never,
  );
  const answerers = byClient.get(client) ?? new Map<string, InputAnswerer>();
  byClient.set(client, answerers);
  answerers.set(method, answer);
}

/** The answerer registered for `method` on `client`, if any. */
export function answererOf(client: Client, method: string): InputAnswerer | undefined {
  return byClient.get(client)?.get(method);
}
