/**
 * Asking the client in the 2026-07-28 era (basic/patterns/mrtr): a modern
 * server sends no requests; a handler's question ends the round with an
 * `input_required` result, and the retry brings the answers. Questions are
 * numbered in the order the handler asks them (`elicit-0`, `sample-1`, …); one
 * answered in an earlier round resolves at once with that answer, the first
 * unanswered one ends the round. Shared by tools/call, prompts/get and
 * resources/read, the three requests the revision lets answer input_required.
 */
import type { ElicitParams, ElicitResult, SampleParams, SampleResult } from '../../tool/types.js';
import { canElicitForm } from '../call-context-base.js';
import type { ClientCapabilities } from '../peer.js';
import { InputRequiredError } from './input-required-error.js';
import { type InteractionCapability, MissingCapabilityError } from './missing-capability.js';

/** One embedded request of an `input_required` result. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
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
  #sequence = 0;

  /**
   * `who` names the asker in refusals (`The tool "x"`); `endRound` runs when a
   * question ends the round (the caller aborts the handler's signal).
   */
  constructor(
    capabilities: ClientCapabilities,
    answers: ReadonlyMap<string, unknown>,
    who: string,
    endRound: (reason: InputRequiredError) => void,
  ) {
    this.#capabilities = capabilities;
    this.#answers = answers;
    this.#who = who;
    this.#endRound = endRound;
  }

  elicit(params: ElicitParams): ElicitResult {
    // mrtr: a server MUST NOT put a request the client did not declare into inputRequests;
    // the revision's answer is -32021 naming what to declare (basic/index, "Error Codes").
    if (!canElicitForm(this.#capabilities.elicitation)) {
      throw this.#missing('elicitation', 'needs to ask the user', 'the elicitation capability (form mode)');
    }
    const answer = this.#ask('elicit', {
      method: 'elicitation/create',
      params: { mode: 'form', message: params.message, requestedSchema: params.requestedSchema },
    }) as { action: ElicitResult['action']; content?: { [key: string]: unknown } };
    const out: ElicitResult = { action: answer.action };
    if (answer.action === 'accept' && answer.content !== undefined) out.content = answer.content;
    return out;
  }

  sample(params: SampleParams): SampleResult {
    if (this.#capabilities.sampling === undefined) {
      throw this.#missing('sampling', 'needs the client to run its model', 'the sampling capability');
    }
    return this.#ask('sample', { method: 'sampling/createMessage', params: { ...params } }) as SampleResult;
  }

  listRoots(): Array<{ uri: string; name?: string }> {
    if (this.#capabilities.roots === undefined) {
      throw this.#missing('roots', "needs the client's roots", 'the roots capability');
    }
    const answer = this.#ask('roots', { method: 'roots/list', params: {} }) as {
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
  #ask(kind: 'elicit' | 'sample' | 'roots', request: InputRequest): unknown {
    const key = `${kind}-${this.#sequence++}`;
    if (this.#answers.has(key)) return this.#answers.get(key);
    this.requests.set(key, request);
    const reason = new InputRequiredError();
    this.#endRound(reason);
    throw reason;
  }
}
