/** `prompts/list` and `prompts/get`. */
import { isProtocolError, isToolError, ProtocolError } from '../../errors.js';
import { toPromptResult } from '../../prompts/messages.js';
import type { PromptContext } from '../../prompts/types.js';
import { formatIssues } from '../../tool/schema.js';
import { askOnRequest } from '../ask.js';
import type { MethodHandler, RequestScope, Result } from '../engine.js';
import { INTERNAL_ERROR, METHOD_NOT_FOUND } from '../jsonrpc.js';
import { isInputRequiredError } from '../modern/input-required-error.js';
import { invalidParams, optionalCursor, optionalObject, requireString } from './params.js';

function registry(scope: RequestScope) {
  const prompts = scope.engine.prompts;
  if (prompts === undefined)
    throw new ProtocolError(METHOD_NOT_FOUND, 'Method not found: this server offers no prompts.');
  return prompts;
}

export const listPrompts: MethodHandler = (params, scope) => {
  const cursor = optionalCursor(params);
  return registry(scope).list(cursor === undefined ? {} : { cursor }) as unknown as Result;
};

/** `prompts/get`: unknown prompt or invalid arguments → -32602 (spec, prompts: error handling). */
export const getPrompt: MethodHandler = async (params, scope) => {
  const name = requireString(params, 'name');
  const prompt = registry(scope).get(name);
  if (prompt === undefined) throw invalidParams(`Unknown prompt: ${name}`);
  const args = (optionalObject(params, 'arguments') ?? {}) as Record<string, string>;
  const checked = await prompt.validate(args);
  if (!checked.ok) throw invalidParams(`Invalid arguments for prompt "${name}":\n${formatIssues(checked.issues)}`);
  const controller = new AbortController();
  const signal = scope.info?.signal ?? controller.signal;
  // 2026-07-28: an input_required round (modern/methods.ts); 2025: elicitation/create on this request.
  const ask = scope.ask ?? askOnRequest(scope, signal, `The prompt "${name}"`);
  const ctx: PromptContext = {
    name,
    signal,
    ...(scope.info?.auth ? { auth: scope.info.auth } : {}),
    ...(scope.info?.http ? { http: scope.info.http } : {}),
    ...(scope.peer.sessionId ? { session: { id: scope.peer.sessionId } } : {}),
    elicit: ask.elicit,
    confirm: ask.confirm,
  };
  try {
    return toPromptResult(await prompt.get(checked.value, ctx), prompt.wire.description) as unknown as Result;
  } catch (error) {
    // The round asked something: the modern engine answers input_required.
    if (isProtocolError(error) || isInputRequiredError(error)) throw error;
    if (isToolError(error)) throw new ProtocolError(INTERNAL_ERROR, error.message);
    scope.engine.logger.error(`prompt "${name}" failed`, { requestId: scope.id, error });
    throw new ProtocolError(
      INTERNAL_ERROR,
      `The prompt "${name}" failed with an internal error; details are in the server log.`,
    );
  }
};
