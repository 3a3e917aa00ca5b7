/**
 * Asking the client in the 2026-07-28 era (basic/patterns/mrtr): a modern
 * server sends no requests; a handler's question ends the round with an
 * `input_required` result, and the retry brings the answers. Questions are
 * numbered in the order the handler asks them (`elicit-0`, `sample-1`, …) unless
 * the handler names them (`{ key: 'user_name' }`); one answered in an earlier
 * round resolves at once with that answer, the first unanswered one ends the
 * round, and questions asked together (`Promise.all`) go out in one round.
 * Shared by tools/call, prompts/get and resources/read, the three requests the
 * revision lets answer input_required.
 */

import { type InteractionCapability, MissingCapabilityError } from '../../pipeline/missing-capability.js';
import type { AskOptions, ElicitParams, ElicitResult, SampleParams, SampleResult } from '../../tool/types.js';
import { canElicitForm, canElicitUrl } from '../call-context-base.js';
import type { ClientCapabilities } from '../peer.js';
import { InputRequiredError } from './input-required-error.js';
import { shapeProblem } from './input-responses.js';
import type { InputMethod } from './request-state.js';

/** Answers a client sent before it was asked, and where the ones that count go. */
export interface Offered {
  readonly answers: ReadonlyMap<string, unknown>;
  adopt(key: string, answer: unknown): void;
}

/** One embedded request of an `input_required` result. */
export interface InputRequest {
  method: InputMethod;
  params: { [key: string]: unknown };
}

/**
 * The questions of one round.
 *
 * @example
 * ```ts
 * const asked = new Interactions(envelope.clientCapabilities, answers, 'The prompt "review"', (r) => ctrl.abort(r));
 * const answer = asked.elicit({ message: 'Which branch?', requestedSchema });
 * ```
 */
export class Interactions {
  /** Asked in this round and not answered yet, by input key. */
  readonly requests = new Map<string, InputRequest>();
  readonly #capabilities: ClientCapabilities;
  readonly #answers: ReadonlyMap<string, unknown>;
  readonly #who: string;
  readonly #endRound: (reason: InputRequiredError) => void;
  readonly #offered: Offered | undefined;
  #sequence = 0;
  /** Every key this run of the handler asked, answered or not: a name used twice is a mistake. */
  readonly #used = new Set<string>();

  /**
   * `who` names the asker in refusals (`The tool "x"`); `endRound` runs when a
   * question ends the round (the caller aborts the handler's signal).
   */
  constructor(
    capabilities: ClientCapabilities,
    answers: ReadonlyMap<string, unknown>,
    who: string,
    endRound: (reason: InputRequiredError) => void,
    offered?: Offered,
  ) {
    this.#offered = offered;
    this.#capabilities = capabilities;
    this.#answers = answers;
    this.#who = who;
    this.#endRound = endRound;
  }

  elicit(params: ElicitParams, options?: AskOptions): ElicitResult {
    // mrtr: a server MUST NOT put a request the client did not declare into inputRequests;
    // the revision's answer is -32021 naming what to declare (basic/index, "Error Codes").
    const capability = this.#capabilities.elicitation;
    let request: InputRequest;
    if (params.mode === 'url') {
      if (!canElicitUrl(capability)) {
        throw this.#missing('elicitation', 'needs to send the user to a URL', 'URL-mode elicitation (elicitation.url)');
      }
      // 2026-07-28 dropped `elicitationId` with `notifications/elicitation/complete`: the
      // client's retry of the call is how the server learns the flow is over.
      const { message, url } = params;
      request = { method: 'elicitation/create', params: { mode: 'url', message, url } };
    } else {
      if (!canElicitForm(capability)) {
        throw this.#missing('elicitation', 'needs to ask the user', 'the elicitation capability (form mode)');
      }
      request = {
        method: 'elicitation/create',
        params: { mode: 'form', message: params.message, requestedSchema: params.requestedSchema },
      };
    }
    const answer = this.#ask('elicit', request, options) as {
      action: ElicitResult['action'];
      content?: { [key: string]: unknown };
    };
    const out: ElicitResult = { action: answer.action };
    if (answer.action === 'accept' && answer.content !== undefined) out.content = answer.content;
    return out;
  }

  sample(params: SampleParams, options?: AskOptions): SampleResult {
    if (this.#capabilities.sampling === undefined) {
      throw this.#missing('sampling', 'needs the client to run its model', 'the sampling capability');
    }
    return this.#ask('sample', { method: 'sampling/createMessage', params: { ...params } }, options) as SampleResult;
  }

  listRoots(options?: AskOptions): Array<{ uri: string; name?: string }> {
    if (this.#capabilities.roots === undefined) {
      throw this.#missing('roots', "needs the client's roots", 'the roots capability');
    }
    const answer = this.#ask('roots', { method: 'roots/list', params: {} }, options) as {
      roots: Array<{ uri: string; name?: string }>;
    };
    return answer.roots;
  }

  #missing(capability: InteractionCapability, need: string, what: string): MissingCapabilityError {
    return new MissingCapabilityError(
      capability,
      `${this.#who} ${need}, but the request did not declare ${what} in its _meta clientCapabilities.`,
    );
  }

  /** The known answer for the next question, or record it as asked and end the round. */
  #ask(kind: 'elicit' | 'sample' | 'roots', request: InputRequest, options: AskOptions | undefined): unknown {
    const key = options?.key ?? `${kind}-${this.#sequence++}`;
    if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
      throw new TypeError(`${this.#who} asked with a key that is not a name of 1 to 200 characters.`);
    }
    if (this.#used.has(key)) {
      throw new TypeError(`${this.#who} asked two questions with the key "${key}"; each needs its own.`);
    }
    this.#used.add(key);
    if (this.#answers.has(key)) return this.#answers.get(key);
    const offered = this.#offered?.answers.get(key);
    if (offered !== undefined && shapeProblem(request.method, offered) === undefined) {
      this.#offered!.adopt(key, offered);
      return offered;
    }
    this.requests.set(key, request);
    const reason = new InputRequiredError();
    this.#endRound(reason);
    throw reason;
  }
}
