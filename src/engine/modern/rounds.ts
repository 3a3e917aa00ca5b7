/**
 * The rounds of a 2026-07-28 request that asks the client (basic/patterns/mrtr,
 * "Server Requirements"): opening a retry (its sealed `requestState` is
 * verified against the method, name, arguments and principal before anything
 * of the handler runs, and its `inputResponses` are read), and sealing the
 * `input_required` result of a round that asked something. tools/call,
 * prompts/get and resources/read share them.
 */
import type { RequestInfo } from '../channel.js';
import type { Result } from '../engine.js';
import { invalidParams } from '../methods/params.js';
import { gatherAnswers, methodOfKey } from './input-responses.js';
import type { InputRequest, Offered } from './interactions.js';
import { digestOf, type RequestStateSealer, type StatePayload } from './request-state.js';

/** What the request is: the state is bound to all of it. */
export interface RoundRequest {
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** The tool or prompt name, or the resource URI. */
  name: string;
  args: unknown;
}

/** An opened round: the answers known so far, and what the state is bound to. */
export interface Round {
  readonly answers: Map<string, unknown>;
  /** Answers a first request brought unasked (no requestState); each counts once asked for. */
  readonly offered: Offered | undefined;
  readonly argsDigest: string | undefined;
  readonly principal: string | undefined;
}

/**
 * Open the round a request starts: the first (no state) or a retry. Throws a
 * -32602 error for a tampered, expired or misbound state, or malformed answers.
 * A first round needs nothing asynchronous: it comes back without a promise.
 */
export function openRound(
  params: { [key: string]: unknown },
  request: RoundRequest,
  sealer: RequestStateSealer,
  info: RequestInfo | undefined,
): Round | Promise<Round> {
  if (params.requestState === undefined) {
    const answers = new Map<string, unknown>();
    return {
      answers,
      offered: offeredOf(params.inputResponses, answers),
      argsDigest: undefined,
      principal: principalOf(info?.auth),
    };
  }
  return openRetry(params, request, sealer, info);
}

async function openRetry(
  params: { [key: string]: unknown },
  request: RoundRequest,
  sealer: RequestStateSealer,
  info: RequestInfo | undefined,
): Promise<Round> {
  const principal = principalOf(info?.auth);
  let argsDigest: string | undefined;
  let state: StatePayload | undefined;
  if (params.requestState !== undefined) {
    argsDigest = await digestOf(request.args);
    const opened = await sealer.open(params.requestState, {
      method: request.method,
      name: request.name,
      argsDigest,
      principal,
    });
    if (!opened.ok) throw invalidParams(opened.reason);
    state = opened.payload;
  }
  const answers = gatherAnswers(state, params.inputResponses);
  if (typeof answers === 'string') throw invalidParams(answers);
  return { answers, offered: undefined, argsDigest, principal };
}

/**
 * `inputResponses` on a request without `requestState`: the client answers
 * before it is asked (mrtr lets a server ignore what it does not recognise).
 * An answer counts when the handler asks under its key and its shape fits the
 * question; it then joins `answers`, and so the state of a later round. The
 * rest is ignored.
 */
function offeredOf(given: unknown, answers: Map<string, unknown>): Offered | undefined {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return undefined;
  const entries = Object.entries(given);
  if (entries.length === 0) return undefined;
  return { answers: new Map(entries), adopt: (key, answer) => answers.set(key, answer) };
}

/** The `input_required` result of a round: what to ask, and the sealed state to bring back. */
export async function inputRequired(
  asked: ReadonlyMap<string, InputRequest>,
  round: Round,
  request: RoundRequest,
  sealer: RequestStateSealer,
): Promise<Result> {
  const payload: StatePayload = {
    v: 1,
    m: request.method,
    n: request.name,
    h: round.argsDigest ?? (await digestOf(request.args)),
    x: sealer.expiry(),
    a: Object.fromEntries(round.answers),
    q: [...asked.keys()],
  };
  if (round.principal !== undefined) payload.p = round.principal;
  // A key the handler named does not say in its prefix what it asked: the state does.
  const named = [...asked].filter(([key, request]) => methodOfKey(key) !== request.method);
  if (named.length > 0) payload.k = Object.fromEntries(named.map(([key, request]) => [key, request.method]));
  return {
    resultType: 'input_required',
    inputRequests: Object.fromEntries(asked),
    requestState: await sealer.seal(payload),
  };
}

/** Who the state is issued to: the authenticated subject or client, if the transport knows one. */
function principalOf(auth: { subject?: string; clientId?: string } | undefined): string | undefined {
  if (auth === undefined) return undefined;
  return auth.subject ?? auth.clientId;
}
