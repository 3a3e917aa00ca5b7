/**
 * How a prompt or resource handler asks the client: `ctx.elicit()`
 * and `ctx.confirm()`, as tools have them, in both eras. In the 2025 era the
 * question is an `elicitation/create` request sent while the client's request
 * is open (on its channel: the POST's SSE stream, or stdout); in the
 * 2026-07-28 era it ends the round with `input_required` and the retry brings
 * the answer (modern/interactions.ts). Tools' call contexts use the same
 * functions, so both ask the same way.
 */
import { ToolError } from '../errors.js';
import type { AskOptions, ElicitParams, ElicitResult } from '../tool/types.js';
import { canElicitForm, canElicitUrl, confirmBy } from './call-context-base.js';
import type { Channel } from './channel.js';
import type { ClientRequests } from './client-requests.js';
import { elicitationHasMode } from './era.js';
import type { Interactions } from './modern/interactions.js';
import type { Peer } from './peer.js';

/** What asking on a request needs of it (a method handler's `RequestScope` has it). */
export interface AskScope {
  readonly peer: Peer;
  readonly channel: Channel;
  readonly engine: { readonly clientRequests: ClientRequests };
}

/** What a prompt or resource handler can ask. */
export interface Ask {
  /** Ask the user through the client (form elicitation). */
  elicit(params: ElicitParams, options?: AskOptions): Promise<ElicitResult>;
  /** A yes/no question: true when the user accepted and ticked the box. */
  confirm(message: string, options?: AskOptions): Promise<boolean>;
}

/**
 * 2025 era: send `elicitation/create` for the request in `scope` and wait for
 * the answer. Refuses (a `ToolError`, `elicitation_unsupported`) when the
 * client did not declare form elicitation.
 *
 * @example
 * ```ts
 * const answer = await elicitOnRequest(scope, { message: 'Which branch?', requestedSchema }, signal);
 * ```
 */
export async function elicitOnRequest(
  scope: AskScope,
  params: ElicitParams,
  signal: AbortSignal,
  who = 'This tool',
  meta?: { [key: string]: unknown },
): Promise<ElicitResult> {
  const { peer, channel, engine } = scope;
  const capability = peer.clientCapabilities.elicitation as { form?: object; url?: object } | undefined;
  let request: { [key: string]: unknown };
  if (params.mode === 'url') {
    if (!canElicitUrl(capability) || !elicitationHasMode(peer.protocolVersion)) {
      throw new ToolError(
        `${who} needs to send the user to a URL, but the client did not declare URL-mode elicitation (elicitation.url), so it cannot.`,
        { code: 'elicitation_unsupported' },
      );
    }
    request = { mode: 'url', message: params.message, url: params.url, elicitationId: params.elicitationId };
  } else {
    if (!canElicitForm(capability)) {
      throw new ToolError(
        `${who} needs to ask the user, but the client did not declare the elicitation capability (form mode), so it cannot.`,
        { code: 'elicitation_unsupported' },
      );
    }
    request = { message: params.message, requestedSchema: params.requestedSchema };
    if (elicitationHasMode(peer.protocolVersion)) request.mode = 'form';
  }
  if (meta !== undefined) request._meta = meta;
  // Related to the request: on its channel while it is open, else the session's own.
  const target = channel.open ? channel : peer.channel;
  if (target === undefined) {
    throw new ToolError('Cannot send elicitation/create: the connection to the client is closed.');
  }
  const result = await engine.clientRequests.request(peer, target, 'elicitation/create', request, { signal });
  const action = result.action;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
    throw new ToolError(`The client answered elicitation/create with an unknown action ${JSON.stringify(action)}.`);
  }
  const out: ElicitResult = { action };
  if (action === 'accept' && typeof result.content === 'object' && result.content !== null) {
    out.content = result.content as { [key: string]: unknown };
  }
  return out;
}

/** The 2025-era {@link Ask} of one request. */
export function askOnRequest(scope: AskScope, signal: AbortSignal, who: string): Ask {
  const elicit = (params: ElicitParams) => elicitOnRequest(scope, params, signal, who);
  return { elicit, confirm: (message) => confirmBy(elicit, message) };
}

/** The 2026-07-28 {@link Ask} of one round. */
export function askInRound(asked: Interactions): Ask {
  const elicit = async (params: ElicitParams, options?: AskOptions) => asked.elicit(params, options);
  return { elicit, confirm: (message, options) => confirmBy(elicit, message, options) };
}
