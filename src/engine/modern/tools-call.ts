/**
 * `tools/call` in the 2026-07-28 era: the same registry and pipeline as the
 * 2025 era, with three differences.
 *
 * - Interactions (elicit, confirm, sample, roots) end the call with an
 *   `input_required` result; the retry brings the answers and a sealed
 *   `requestState` that is verified before the handler runs (see
 *   call-context.ts for how the handler is re-run).
 * - `Mcp-Param-*` headers are checked against the arguments (400, -32020).
 * - Cancellation: over HTTP, closing the response stream aborts the handler
 *   and nothing more is sent; on stdio, `notifications/cancelled` does (the
 *   call is in the connection peer's in-flight table like a 2025 call).
 */
import { ProtocolError } from '../../errors.js';
import type { RequestInfo } from '../channel.js';
import type { Result } from '../engine.js';
import { INVALID_PARAMS, INVALID_REQUEST, SERVER_SHUTTING_DOWN } from '../jsonrpc.js';
import { CancelledError } from '../methods/lifecycle.js';
import { invalidParams } from '../methods/params.js';
import type { InFlight } from '../peer.js';
import { ModernCallContext, type ModernCallOptions } from './call-context.js';
import { checkParamHeaders, paramHeadersOf } from './param-headers.js';
import { HEADER_MISMATCH } from './protocol.js';
import { inputRequired, openRound } from './rounds.js';
import { type ModernHandler, refuseWith } from './scope.js';
import { callToolAsTaskModern, wantsTask } from './tasks.js';

const METHOD = 'tools/call';
/** `done` of a call whose handler has not started yet (replaced right after). */
const NOT_STARTED: Promise<unknown> = Promise.resolve();

export const callToolModern: ModernHandler = async (params, scope) => {
  const { engine, id, info, peer, shared } = scope;
  const name = params.name;
  if (typeof name !== 'string') throw invalidParams('"name" must be the tool name (a string).');
  const rawArgs = params.arguments;
  if (rawArgs !== undefined && rawArgs !== null && (typeof rawArgs !== 'object' || Array.isArray(rawArgs))) {
    throw invalidParams('"arguments" must be an object.');
  }
  const args = rawArgs ?? {};
  if (!engine.accepting) {
    throw new ProtocolError(SERVER_SHUTTING_DOWN, 'The server is shutting down and takes no new tool calls.');
  }
  const tools = info?.tools ?? engine.tools;
  const tool = tools.get(name);
  if (tool === undefined)
    throw new ProtocolError(INVALID_PARAMS, tools.unknownToolMessage?.(name) ?? `Unknown tool: ${name}`);
  if (scope.headers !== undefined) {
    const problem = checkParamHeaders(paramHeadersOf(tool), args, scope.headers);
    if (problem !== undefined) throw refuseWith(400, HEADER_MISMATCH, `Header mismatch: ${problem}.`);
  }
  // The tasks extension: only tools declared with `task` ever look at it. A tool that
  // asks before it becomes a task runs plain until it calls ctx.becomeTask().
  const task = tool.task !== undefined && engine.tasks !== undefined && wantsTask(tool, scope.envelope);
  if (task && tool.asksBeforeTask !== true) return callToolAsTaskModern(scope, tool, args);

  // A retry: verify the sealed state before anything of the tool runs (mrtr, "Server Requirements").
  const request = { method: METHOD, name, args } as const;
  const opening = openRound(params, request, shared.sealer, info);
  const round = opening instanceof Promise ? await opening : opening;
  const { answers } = round;

  const meta = params._meta as { progressToken?: unknown } | undefined;
  const token = meta?.progressToken;
  const options: ModernCallOptions = { id, envelope: scope.envelope, channel: scope.channel, answers };
  if (round.offered !== undefined) options.offered = round.offered;
  if (task) options.mayBecomeTask = true;
  if (info?.auth) options.auth = info.auth;
  if (info?.http) options.http = info.http;
  if (typeof token === 'string' || typeof token === 'number') options.progressToken = token;
  const ctx = new ModernCallContext(tool, args, options);

  let cancel: (() => void) | undefined;
  const entry: InFlight = {
    cancelled: false,
    done: NOT_STARTED,
    abort(reason) {
      ctx.abort(reason);
      if (entry.cancelled) cancel?.();
    },
  };
  // HTTP (2026-07-28): closing the response stream IS the cancel.
  const onDisconnect = () => {
    entry.cancelled = true;
    entry.abort(new CancelledError('The client closed the request.'));
  };
  if (peer !== undefined) {
    if (peer.inFlight.has(id))
      throw new ProtocolError(INVALID_REQUEST, `Request id ${JSON.stringify(id)} is already in use by a running call.`);
    peer.inFlight.set(id, entry);
  }
  const stopListening = listenForDisconnect(info, onDisconnect);
  const done = engine.runTool(ctx);
  (entry as { done: Promise<unknown> }).done = done;
  engine.track(done);
  // Settles with the call, or with undefined as soon as it is cancelled (no Promise.race per call:).
  const answer = new Promise<Awaited<typeof done> | undefined>((resolve, reject) => {
    cancel = () => resolve(undefined);
    if (entry.cancelled) resolve(undefined); // the client left before the call started
    done.then(resolve, reject);
  });
  try {
    const result = await answer;
    if (entry.cancelled || result === undefined) return undefined;
    if (ctx.inputRequests.size > 0) return await inputRequired(ctx.inputRequests, round, request, shared.sealer);
    // Questions answered: the task starts, its work running the handler again with the answers.
    if (ctx.becameTask) return (await callToolAsTaskModern(scope, tool, args, round.answers)) as unknown as Result;
    return result as unknown as Result;
  } finally {
    ctx.finish();
    stopListening();
    if (peer?.inFlight.get(id) === entry) peer.inFlight.delete(id);
  }
};

/** Call `listener` when the client goes away: the transport's cheap hook if it has one, else the signal. */
function listenForDisconnect(info: RequestInfo | undefined, listener: () => void): () => void {
  if (info?.onGone !== undefined) return info.onGone(listener);
  const signal = info?.signal;
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    listener();
    return () => {};
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}
