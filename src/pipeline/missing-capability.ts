/**
 * MissingRequiredClientCapability (-32021, protocol revision 2026-07-28,
 * basic/index "Error Codes"): the request cannot be processed without a client
 * capability its `_meta` did not declare. `data.requiredCapabilities` lists
 * the missing ones in the ClientCapabilities shape, so the client knows what
 * to declare on a retry; over HTTP the status is 400 (a handler
 * that needed elicitation used to answer an `isError` result instead).
 */
import { ProtocolError } from '../errors.js';

/** MissingRequiredClientCapability, an error code of the 2026-07-28 revision (basic/index, "Error Codes"). */
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

/** The client capabilities an interaction needs. */
export type InteractionCapability = 'elicitation' | 'sampling' | 'roots';

const REQUIRED: Readonly<Record<InteractionCapability, object>> = Object.freeze({
  // candor asks in form mode (mrtr embeds elicitation/create with mode "form").
  elicitation: { form: {} },
  sampling: {},
  roots: {},
});

/**
 * Thrown inside a 2026-07-28 call when it needs a capability the request did
 * not declare; the engine answers it as the JSON-RPC error (HTTP 400).
 *
 * @example
 * ```ts
 * throw new MissingCapabilityError('elicitation', 'This tool asks the user to confirm; declare elicitation.');
 * ```
 */
export class MissingCapabilityError extends ProtocolError {
  readonly capability: InteractionCapability;
  /** Read by the modern engine (see `statusOfError`). */
  readonly httpStatus = 400;

  constructor(capability: InteractionCapability, message: string) {
    super(MISSING_REQUIRED_CLIENT_CAPABILITY, message, {
      requiredCapabilities: { [capability]: REQUIRED[capability] },
    });
    this.capability = capability;
  }
}

/** True for a {@link MissingCapabilityError}, also across module copies. */
export function isMissingCapabilityError(error: unknown): error is MissingCapabilityError {
  return (
    error instanceof MissingCapabilityError ||
    (typeof error === 'object' &&
      error !== null &&
      (error as { rpcCode?: unknown }).rpcCode === MISSING_REQUIRED_CLIENT_CAPABILITY &&
      typeof (error as { capability?: unknown }).capability === 'string')
  );
}
