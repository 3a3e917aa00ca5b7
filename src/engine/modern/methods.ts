/**
 * The 2026-07-28 method table. Methods whose answer did not change reuse the
 * 2025-era handlers (src/engine/methods/) and add what the era adds: caching
 * hints on lists and reads, -32602 instead of -32002 for an unknown resource.
 * `initialize`, `ping`, `logging/setLevel` and `resources/(un)subscribe` do not
 * exist in this era: they are unknown methods (404, -32601).
 */
import { isProtocolError, ProtocolError } from '../../errors.js';
import { askInRound } from '../ask.js';
import type { RequestScope, Result } from '../engine.js';
import { INVALID_PARAMS, RawJson } from '../jsonrpc.js';
import { complete } from '../methods/completion.js';
import { optionalCursor, optionalObject, requireString } from '../methods/params.js';
import { getPrompt, listPrompts } from '../methods/prompts.js';
import { listResources, listResourceTemplates, readResource } from '../methods/resources.js';
import { Peer } from '../peer.js';
import { pageWithoutExecution, withoutExecution } from './deleted-fields.js';
import { isInputRequiredError } from './input-required-error.js';
import { Interactions } from './interactions.js';
import { supportedVersions } from './modern-only.js';
import { inputRequired, openRound, type RoundRequest } from './rounds.js';
import type { ModernHandler, ModernScope } from './scope.js';
import { modernTaskMethods } from './tasks.js';
import { callToolModern } from './tools-call.js';

/** The 2025 handlers read `scope.peer` only for a session id; modern requests have none. */
const NO_SESSION = new Peer({ stateless: true }, { onClose() {} });

/** `resources/read` for an unknown URI: 2026-07-28 uses -32602 (and MUST NOT emit -32002). */
const LEGACY_RESOURCE_NOT_FOUND = -32002;

function legacyScope(scope: ModernScope): RequestScope {
  return { id: scope.id, peer: NO_SESSION, channel: scope.channel, info: scope.info, engine: scope.engine };
}

/** Add `ttlMs`/`cacheScope` to a result (a cached JSON page is spliced, not parsed). */
function withHints(result: Result | RawJson, hints: { ttlMs: number; cacheScope: string }): Result | RawJson {
  if (result instanceof RawJson) return new RawJson(splicedOnce(result.json, hints));
  return { ...result, ...hints };
}

/**
 * Remembers the last splices of cached JSON pages: the registry hands out the
 * same string until the list changes, so a large manifest is copied once per
 * change, not once per request. A few pages are kept, because with
 * authorization each scope set has its own list (src/auth/tool-views.ts).
 */
export class SpliceMemo {
  readonly #spliced = new Map<string, string>();

  splice(json: string, members: object): string {
    const known = this.#spliced.get(json);
    if (known !== undefined) return known;
    const spliced = spliceJson(json, members);
    if (json.length > 4096) {
      if (this.#spliced.size >= 8) this.#spliced.clear();
      this.#spliced.set(json, spliced);
    }
    return spliced;
  }
}

const hintMemos = new Map<string, SpliceMemo>();

function splicedOnce(json: string, hints: { ttlMs: number; cacheScope: string }): string {
  const key = `${hints.ttlMs}/${hints.cacheScope}`;
  let memo = hintMemos.get(key);
  if (memo === undefined) {
    memo = new SpliceMemo();
    if (hintMemos.size < 16) hintMemos.set(key, memo);
  }
  return memo.splice(json, hints);
}

/**
 * Append members to a JSON object's text: `{"tools":[…]}` + `{"ttlMs":1}` →
 * `{"tools":[…],"ttlMs":1}`.
 */
export function spliceJson(objectJson: string, members: object): string {
  const extra = JSON.stringify(members);
  if (extra === '{}') return objectJson;
  const body = objectJson.slice(0, objectJson.lastIndexOf('}')).trimEnd();
  return body.endsWith('{') ? `${body}${extra.slice(1)}` : `${body},${extra.slice(1)}`;
}

const discover: ModernHandler = (_params, scope) => {
  const { engine, shared, info } = scope;
  // `tasks` is the 2025-11-25 capability; this era negotiates tasks as an extension.
  const { tasks: _legacyTasks, ...capabilities } = engine.capabilities;
  const result: Result = {
    supportedVersions: [...supportedVersions(shared.modernOnly)],
    capabilities,
    ...shared.cache.hints('discover', info?.auth),
  };
  if (engine.instructions !== undefined) result.instructions = engine.instructions;
  return result;
};

/** `tools/list`: the registry's cached page, spliced with the hints (nothing rebuilt per request). */
const listTools: ModernHandler = (params, scope) => {
  const { engine, shared, info } = scope;
  const cursor = optionalCursor(params);
  const options = cursor === undefined ? {} : { cursor };
  const hints = shared.cache.hints('lists', info?.auth);
  const tools = info?.tools ?? engine.tools;
  // `execution` is 2025-11-25 vocabulary; this era has the tasks extension instead (deleted-fields.ts).
  if (tools.manifestJson) {
    return withHints(new RawJson(withoutExecution(tools.manifestJson(options))), hints) as unknown as Result;
  }
  return withHints(pageWithoutExecution(tools.manifest(options) as unknown as Result), hints) as Result;
};

/** Reuse a 2025 handler, adding caching hints of one kind. */
function cached(handler: typeof listPrompts, kind: 'lists' | 'reads'): ModernHandler {
  return async (params, scope) => {
    const result = await handler(params, legacyScope(scope));
    return result === undefined
      ? undefined
      : (withHints(result, scope.shared.cache.hints(kind, scope.info?.auth)) as Result);
  };
}

/**
 * Run a 2025 handler as one round of a request that may ask the client
 * (prompts/get, resources/read: the requests besides tools/call that the
 * revision lets answer `input_required`, basic/patterns/mrtr). A retry's
 * sealed state is verified first; when the handler asks something unanswered,
 * the answer is `input_required` with the questions and a new sealed state.
 */
async function inRounds(
  params: { [key: string]: unknown },
  scope: ModernScope,
  request: RoundRequest,
  run: (scope: RequestScope) => Promise<Result | undefined>,
): Promise<Result | undefined> {
  const opening = openRound(params, request, scope.shared.sealer, scope.info);
  const round = opening instanceof Promise ? await opening : opening;
  const what = request.method === 'prompts/get' ? `The prompt "${request.name}"` : `Reading ${request.name}`;
  const asked = new Interactions(scope.envelope.clientCapabilities, round.answers, what, () => {}, round.offered);
  let result: Result | undefined;
  try {
    result = await run({ ...legacyScope(scope), ask: askInRound(asked) });
  } catch (error) {
    if (!(isInputRequiredError(error) && asked.requests.size > 0)) throw error;
  }
  if (asked.requests.size > 0) return inputRequired(asked.requests, round, request, scope.shared.sealer);
  return result;
}

const getPromptModern: ModernHandler = (params, scope) => {
  const name = requireString(params, 'name');
  const args = optionalObject(params, 'arguments') ?? {};
  return inRounds(params, scope, { method: 'prompts/get', name, args }, async (legacy) => getPrompt(params, legacy));
};

const readResourceModern: ModernHandler = async (params, scope) => {
  const uri = requireString(params, 'uri');
  try {
    return await inRounds(params, scope, { method: 'resources/read', name: uri, args: {} }, async (legacy) => {
      const result = await readResource(params, legacy);
      // Caching hints belong to a complete read, not to a round that asks.
      return result === undefined
        ? undefined
        : (withHints(result, scope.shared.cache.hints('reads', scope.info?.auth)) as Result);
    });
  } catch (error) {
    if (isProtocolError(error) && error.rpcCode === LEGACY_RESOURCE_NOT_FOUND) {
      throw new ProtocolError(INVALID_PARAMS, error.message, error.data);
    }
    throw error;
  }
};

const listen: ModernHandler = async (params, scope) => {
  const { peer, id, channel, info, shared } = scope;
  // stdio: notifications/cancelled finds the subscription through the peer's in-flight table.
  const controller = new AbortController();
  const onAbort = () => controller.abort(info?.signal?.reason);
  info?.signal?.addEventListener('abort', onAbort, { once: true });
  if (info?.signal?.aborted) onAbort();
  const entry = {
    cancelled: false,
    done: Promise.resolve(),
    abort: (reason: unknown) => {
      entry.cancelled = true;
      controller.abort(reason);
    },
  };
  if (peer !== undefined) {
    if (peer.inFlight.has(id)) throw new ProtocolError(-32600, `Request id ${JSON.stringify(id)} is already in use.`);
    peer.inFlight.set(id, entry);
  }
  try {
    return await shared.subscriptions.listen(id, params, { channel, signal: controller.signal });
  } finally {
    info?.signal?.removeEventListener('abort', onAbort);
    if (peer?.inFlight.get(id) === entry) peer.inFlight.delete(id);
  }
};

const reuse =
  (handler: typeof complete): ModernHandler =>
  (params, scope) =>
    handler(params, legacyScope(scope));

/** Requests the modern era answers. */
export const modernMethods: ReadonlyMap<string, ModernHandler> = new Map<string, ModernHandler>([
  ['server/discover', discover],
  ['tools/list', listTools],
  ['tools/call', callToolModern],
  ['resources/list', cached(listResources, 'lists')],
  ['resources/templates/list', cached(listResourceTemplates, 'lists')],
  ['resources/read', readResourceModern],
  ['prompts/list', cached(listPrompts, 'lists')],
  ['prompts/get', getPromptModern],
  ['completion/complete', reuse(complete)],
  ['subscriptions/listen', listen],
  ...modernTaskMethods,
]);
