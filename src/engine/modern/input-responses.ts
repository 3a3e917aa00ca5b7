/**
 * Reading a retry's `inputResponses` (basic/patterns/mrtr, "Error Handling"):
 * only the keys the sealed `requestState` says were asked count; unknown keys
 * are ignored; an answer of the wrong shape is a -32602 error before the
 * handler runs. A key asked but not answered is simply asked again.
 */
import type { InputMethod, StatePayload } from './request-state.js';

/**
 * The answers a retry brings: earlier rounds' (from the sealed state) plus the
 * new ones for the keys asked last. Returns the problem text instead when an
 * answer is malformed.
 *
 * @example
 * ```ts
 * const answers = gatherAnswers(payload, params.inputResponses);
 * if (typeof answers === 'string') throw invalidParams(answers);
 * ```
 */
export function gatherAnswers(payload: StatePayload | undefined, responses: unknown): Map<string, unknown> | string {
  const answers = new Map<string, unknown>(payload ? Object.entries(payload.a) : []);
  if (payload === undefined || responses === undefined || responses === null) return answers;
  if (typeof responses !== 'object' || Array.isArray(responses))
    return '"inputResponses" must be an object keyed by input request.';
  const given = responses as Record<string, unknown>;
  for (const key of payload.q) {
    if (!Object.hasOwn(given, key)) continue;
    const answer = given[key];
    const problem = shapeProblem(payload.k?.[key] ?? methodOfKey(key), answer);
    if (problem !== undefined) return `inputResponses["${key}"] ${problem}`;
    answers.set(key, answer);
  }
  return answers;
}

/** What a numbered key (`elicit-0`, `sample-1`, `roots-2`) asked, from its prefix. */
export function methodOfKey(key: string): InputMethod | undefined {
  if (key.startsWith('elicit-')) return 'elicitation/create';
  if (key.startsWith('sample-')) return 'sampling/createMessage';
  if (key.startsWith('roots-')) return 'roots/list';
  return undefined;
}

/** What is wrong with one answer's shape for the request it answers, or undefined. */
export function shapeProblem(method: InputMethod | undefined, answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return 'must be an object.';
  const a = answer as Record<string, unknown>;
  if (method === 'elicitation/create') {
    if (a.action !== 'accept' && a.action !== 'decline' && a.action !== 'cancel') {
      return 'must be an elicitation result: "action" is "accept", "decline" or "cancel".';
    }
    if (a.content !== undefined && (typeof a.content !== 'object' || a.content === null || Array.isArray(a.content))) {
      return 'must be an elicitation result: "content" must be an object.';
    }
    return undefined;
  }
  if (method === 'sampling/createMessage') {
    if ((a.role !== 'assistant' && a.role !== 'user') || typeof a.model !== 'string' || a.content === undefined) {
      return 'must be a sampling result with "role", "content" and "model".';
    }
    return undefined;
  }
  if (method === 'roots/list') {
    if (
      !Array.isArray(a.roots) ||
      !a.roots.every((r) => typeof r === 'object' && r !== null && typeof r.uri === 'string')
    ) {
      return 'must be a roots result: "roots" is a list of { uri }.';
    }
    return undefined;
  }
  return 'answers no request this server made.';
}
