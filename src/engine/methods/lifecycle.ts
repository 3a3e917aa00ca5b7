/** `initialize`, `ping`, `logging/setLevel`, and the lifecycle notifications. */
import { CandorError } from '../../errors.js';
import type { MethodHandler, NotificationHandler, Result } from '../engine.js';
import { negotiateVersion } from '../era.js';
import { isLogLevel, LOG_LEVELS } from '../log-levels.js';
import type { ClientCapabilities, ClientInfo } from '../peer.js';
import { invalidParams, optionalObject, requireString } from './params.js';

/** `initialize`: negotiate the version, remember the client, advertise capabilities. */
export const initialize: MethodHandler = (params, { peer, engine }) => {
  const requested = requireString(params, 'protocolVersion');
  const capabilities = optionalObject(params, 'capabilities') ?? {};
  const clientInfo = optionalObject(params, 'clientInfo');
  peer.protocolVersion = negotiateVersion(requested);
  peer.negotiated = true;
  peer.clientCapabilities = capabilities as ClientCapabilities;
  peer.clientInfo = clientInfo as ClientInfo | undefined;
  const result: Result = {
    protocolVersion: peer.protocolVersion,
    capabilities: engine.capabilities,
    serverInfo: engine.serverInfo,
  };
  if (engine.instructions !== undefined) result.instructions = engine.instructions;
  return result;
};

export const ping: MethodHandler = () => ({});

/** `logging/setLevel`: the minimum level of `notifications/message` this client gets. */
export const setLevel: MethodHandler = (params, { peer }) => {
  const level = params.level;
  if (!isLogLevel(level)) throw invalidParams(`"level" must be one of ${LOG_LEVELS.join(', ')}.`);
  peer.logLevel = level;
  return {};
};

export const initialized: NotificationHandler = (_params, { peer }) => {
  peer.initialized = true;
};

/** `notifications/cancelled`: abort the call; it then gets no response (spec, cancellation). */
export const cancelled: NotificationHandler = (params, { peer }) => {
  const id = params.requestId;
  if (typeof id !== 'string' && typeof id !== 'number') return;
  const call = peer.inFlight.get(id);
  if (call === undefined) return; // unknown or already finished: ignore (spec allows the race)
  call.cancelled = true;
  const reason = typeof params.reason === 'string' ? params.reason : 'The client cancelled the request.';
  call.abort(new CancelledError(reason));
};

/** The abort reason a handler sees when the client cancelled its call. */
export class CancelledError extends CandorError {
  override readonly name = 'CancelledError';
  constructor(message: string) {
    super(message, { code: 'cancelled' });
  }
}
