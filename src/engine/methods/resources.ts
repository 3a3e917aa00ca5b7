/** `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe|unsubscribe`. */
import { isProtocolError, isToolError, ProtocolError } from '../../errors.js';
import { askOnRequest } from '../ask.js';
import type { MethodHandler, RequestScope, Result } from '../engine.js';
import { INTERNAL_ERROR, METHOD_NOT_FOUND } from '../jsonrpc.js';
import { isInputRequiredError } from '../modern/input-required-error.js';
import { optionalCursor, requireString } from './params.js';

function registry(scope: RequestScope) {
  const resources = scope.engine.resources;
  if (resources === undefined)
    throw new ProtocolError(METHOD_NOT_FOUND, 'Method not found: this server offers no resources.');
  return resources;
}

export const listResources: MethodHandler = async (params, scope) => {
  const cursor = optionalCursor(params);
  return (await registry(scope).list(cursor === undefined ? {} : { cursor })) as unknown as Result;
};

export const listResourceTemplates: MethodHandler = (params, scope) => {
  const cursor = optionalCursor(params);
  return registry(scope).listTemplates(cursor === undefined ? {} : { cursor }) as unknown as Result;
};

/** `resources/read`: unknown URI → -32002; a read that throws → -32603, masked unless a ToolError. */
export const readResource: MethodHandler = async (params, scope) => {
  const uri = requireString(params, 'uri');
  const resources = registry(scope);
  const controller = new AbortController();
  const signal = scope.info?.signal ?? controller.signal;
  // 2026-07-28: an input_required round (modern/methods.ts); 2025: elicitation/create on this request.
  const ask = scope.ask ?? askOnRequest(scope, signal, `Reading ${uri}`);
  const ctx = {
    signal,
    ...(scope.info?.auth ? { auth: scope.info.auth } : {}),
    ...(scope.info?.http ? { http: scope.info.http } : {}),
    ...(scope.peer.sessionId ? { session: { id: scope.peer.sessionId } } : {}),
    elicit: ask.elicit,
    confirm: ask.confirm,
  };
  try {
    return (await resources.read(uri, ctx)) as unknown as Result;
  } catch (error) {
    // The round asked something: the modern engine answers input_required.
    if (isProtocolError(error) || isInputRequiredError(error)) throw error;
    if (isToolError(error)) throw new ProtocolError(INTERNAL_ERROR, error.message, { uri });
    scope.engine.logger.error(`reading resource ${uri} failed`, { requestId: scope.id, error });
    throw new ProtocolError(
      INTERNAL_ERROR,
      `Reading ${uri} failed with an internal error; details are in the server log.`,
      {
        uri,
      },
    );
  }
};

export const subscribe: MethodHandler = (params, scope) => {
  registry(scope);
  scope.peer.subscriptions.add(requireString(params, 'uri'));
  return {};
};

export const unsubscribe: MethodHandler = (params, scope) => {
  registry(scope);
  scope.peer.subscriptions.delete(requireString(params, 'uri'));
  return {};
};
