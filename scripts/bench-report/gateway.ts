/** The gateway's section: candor gateway against the stdio→HTTP bridges under wrk, and its cost per call. */
import { type Figures, fixed, int, markdownTable, met, runNote, times } from './format.js';

interface Contender {
  name: string;
  config: string;
  kind: 'best' | 'default' | 'engine';
  callsPerSecond: number;
  perRound: number[];
  cpuMicrosPerCall: number;
  cpuPerRound: number[];
}

/** Headline figures for the README summary. */
export interface GatewayHeadline {
  callsRatio?: number;
  cpuRatio?: number;
  overEngine?: number;
}

/** The section's Markdown and its headline ratios; undefined when the run has no wrk figures. */
export function gatewaySection(f: Figures): { markdown: string; headline: GatewayHeadline } | undefined {
  const d = f.data;
  const http = d.http as
    | {
        contenders?: Contender[];
        betterBridge: string;
        callsRatio: number;
        cpuRatio: number;
        gatewayOverEngineCpu: number;
      }
    | undefined;
  if (!http?.contenders) return undefined;
  const rows = http.contenders.map((c) => [
    c.config,
    c.kind === 'engine' ? 'no gateway: the engine alone' : c.kind,
    int(c.callsPerSecond),
    `${int(Math.min(...c.perRound))}–${int(Math.max(...c.perRound))}`,
    fixed(c.cpuMicrosPerCall),
    `${fixed(Math.min(...c.cpuPerRound))}–${fixed(Math.max(...c.cpuPerRound))}`,
  ]);
  const stdio = d.stdio as
    | {
        directCallsPerSecond: number;
        gatewayCallsPerSecond: number;
        addedLatencyMicros: number;
        gatewayCpuMicrosPerCall: number;
      }
    | undefined;
  const headline = { callsRatio: http.callsRatio, cpuRatio: http.cpuRatio, overEngine: http.gatewayOverEngineCpu };
  const markdown = `## The gateway: candor gateway against the stdio→HTTP bridges

\`bench/gateway.ts\`, ${runNote(f)}. Every contender sits in front of the same stdio server (\`test/fixtures/gateway/upstream.mjs\`, a small JSON answer) and is loaded by wrk with ${d.inFlight} connections: \`bench/wrk/mcp-session.lua\` opens the session (initialize, initialized) in a warm-up run and keeps it, then every call is a \`tools/call\` with its own id. ${d.rounds} rounds of ${d.seconds} s, the order reversed every other round; calls/s is the median round, CPU per call is the contender's own process (the upstream it started is a process of its own) over all rounds. The bridges are installed from npm into \`.cache/bench-peers\` (not dependencies of candor). mcp-proxy runs with its fast flags (\`--server stream --no-eventStore\`) both stateful and \`--stateless\` (a proxy server object per request over its one stdio client), and with its defaults; supergateway's default (stateless) mode starts the stdio server for every POST, so only its \`--stateful\` mode is loaded. The better bridge is the one with the most calls/s in the run.

| | |
|---|---|
| candor gateway over the better bridge (${http.betterBridge}), calls/s, median of the rounds' ratios | **${times(http.callsRatio)}** (goal ≥ 3×${met(http.callsRatio >= 3)}) |
| the better bridge's CPU per call over candor gateway's | **${times(http.cpuRatio)}** |
| candor gateway's CPU per proxied call over the engine's CPU per HTTP request (same run) | **${times(http.gatewayOverEngineCpu)}** (goal ≤ 2×${met(http.gatewayOverEngineCpu <= 2)}) |

${markdownTable(['contender (configuration)', 'kind', 'calls/s', 'rounds', 'CPU µs/call', 'rounds'], rows)}
${
  stdio
    ? `
Over stdio, one call at a time (an SDK v2 client, \`candor gateway --stdio --policy yolo\`): the upstream alone answers ${int(stdio.directCallsPerSecond)} calls/s, through the gateway ${int(stdio.gatewayCallsPerSecond)}; the gateway adds ${int(stdio.addedLatencyMicros)} µs per call and spends ${int(stdio.gatewayCpuMicrosPerCall)} µs of CPU on it.
`
    : ''
}`;
  return { markdown, headline };
}
