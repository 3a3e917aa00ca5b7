/**
 * What the downstream client gets for an upstream call's outcome: the upstream's
 * result verbatim (minus the protocol's own `_meta` of that hop), or a refusal a
 * model can read and act on.
 */

import type { CallOutcome, CatalogTool } from '../host/types.js';
import { toolErrorResult } from '../pipeline/result.js';
import type { CallToolResult } from '../tool/types.js';
import type { CallScope } from './ask.js';
import { GATEWAY_META_KEY } from './proxy-tool.js';

/** What the downstream client gets for an outcome: the upstream's result verbatim, or a refusal it can read. */
export function resultOf(tool: CatalogTool, outcome: CallOutcome, scope: CallScope): CallToolResult {
  if (outcome.result && (outcome.status === 'ok' || outcome.status === 'error')) return withoutHopMeta(outcome.result);
  let text = `candor gateway: ${tool.name} was not run (${outcome.status}): ${outcome.message ?? ''}`.trim();
  if (scope.asked?.answer === 'no-elicitation' && scope.asked.request.taint !== undefined) {
    text =
      `candor gateway: ${tool.name} was refused: ${scope.asked.request.reason} ` +
      'A person must confirm it, and this client cannot show questions (it did not declare the elicitation capability). ' +
      `Nothing ran. Use a client that supports elicitation, start a new session without the untrusted content, or set "taint": "off" in the gateway config (or the profile's) if you accept the risk.`;
  } else if (scope.asked?.answer === 'no-elicitation') {
    text =
      `candor gateway: ${tool.name} needs confirmation (${scope.asked.request.reason}), but this client cannot show questions (it did not declare the elicitation capability). ` +
      `Nothing ran. To allow it, add a rule to the gateway config, e.g. "policy": { "rules": [{ "decision": "allow", "tools": "${tool.name}" }] }, ` +
      `mark the server "trust": "trusted", or use a client that supports elicitation.`;
  } else if (scope.asked && (scope.asked.answer === 'decline' || scope.asked.answer === 'cancel')) {
    text = `candor gateway: ${tool.name} was not run: the user ${scope.asked.answer === 'decline' ? 'declined' : 'cancelled'} the confirmation.`;
  }
  const result = toolErrorResult(text);
  result._meta = {
    [GATEWAY_META_KEY]: { status: outcome.status, reason: outcome.message ?? '', pin: tool.pin.status },
  };
  return result;
}

/**
 * The upstream's result, minus `_meta` keys of the protocol itself
 * (`io.modelcontextprotocol/…`, e.g. the upstream's serverInfo): they describe that
 * hop, and the downstream engine adds its own. Everything else passes verbatim.
 */
function withoutHopMeta(result: CallToolResult): CallToolResult {
  const meta = result._meta;
  if (meta === undefined || !Object.keys(meta).some((k) => k.startsWith('io.modelcontextprotocol/'))) return result;
  const kept = Object.fromEntries(Object.entries(meta).filter(([k]) => !k.startsWith('io.modelcontextprotocol/')));
  const { _meta: _drop, ...rest } = result;
  return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : (rest as CallToolResult);
}
