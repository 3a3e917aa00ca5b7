/**
 * OpenTelemetry metrics of the gateway, when `@opentelemetry/api`
 * is installed (an optional peer dependency; nothing is recorded otherwise):
 * `candor.gateway.calls` (counter: server, tool, decision, decided_by,
 * outcome), `candor.gateway.call.duration` (histogram in ms: server, tool,
 * outcome) and `candor.gateway.result.findings` (counter: kind, rule, action, server,
 * tool; one per rule that found something in a call's result, never what it found).
 * The application registers the meter provider and its exporter
 * before the gateway starts; without one nothing is recorded or built.
 */
import type { AuditEntry } from './audit-log.js';

/** Records one call (the same facts as its audit line). */
export type CallMetrics = (entry: AuditEntry) => void;

/**
 * The recorder, or undefined when `@opentelemetry/api` cannot be loaded or no
 * meter provider is registered.
 *
 * @example
 * ```ts
 * const record = await gatewayMetrics();
 * record?.(entry);
 * ```
 */
export async function gatewayMetrics(): Promise<CallMetrics | undefined> {
  let api: typeof import('@opentelemetry/api');
  try {
    api = await import('@opentelemetry/api');
  } catch {
    return undefined;
  }
  const meter = api.metrics.getMeter('candor-gateway');
  // No meter provider registered yet: the API hands out its no-op meter, and a provider
  // registered later never reaches a meter taken now. Recording nothing, the gateway
  // then builds no record per call either.
  if (meter === api.createNoopMeter()) return undefined;
  const calls = meter.createCounter('candor.gateway.calls', {
    description: 'Tool calls through the gateway, by server, tool, decision and outcome.',
  });
  const duration = meter.createHistogram('candor.gateway.call.duration', {
    description: 'How long a call through the gateway took (policy, confirmation and upstream).',
    unit: 'ms',
  });
  const findings = meter.createCounter('candor.gateway.result.findings', {
    description:
      "Secrets and injected instructions found in tool results, by kind, rule, the action taken, server and tool (one per rule per call's result).",
  });
  return (entry) => {
    const server = entry.server ?? '';
    for (const finding of entry.results ?? [])
      findings.add(1, { kind: finding.kind, rule: finding.rule, action: finding.action, server, tool: entry.tool });
    calls.add(1, {
      server,
      tool: entry.tool,
      decision: entry.decision,
      decided_by: entry.decidedBy,
      outcome: entry.outcome,
    });
    duration.record(entry.durationMs, { server, tool: entry.tool, outcome: entry.outcome });
  };
}
