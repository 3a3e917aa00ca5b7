/** The engine's section: tools/call over Streamable HTTP under wrk, every peer named in two configurations. */
import { type Figures, fixed, int, markdownTable, met, pct, ratio, runNote, times } from './format.js';

/** Headline figures for the README summary. */
export interface EngineHeadline {
  v2Best2025?: number;
  v2Best2026?: number;
  v1Best?: number;
  bare2025?: number;
  bare2026?: number;
}

/** The section's Markdown and its headline ratios (all by server CPU per request, one run). */
export function engineHttpSection(f: Figures): { markdown: string; headline: EngineHeadline } {
  const d = f.data;
  const cpu = d.serverCpuMicrosPerRequest as Record<string, number>;
  const calls = d.callsPerSecond as Record<string, number>;
  const rounds = (d.cpuRoundRatios ?? {}) as Record<string, number>;
  // The peer at its best: the configuration (of every one run) that cost the least CPU in this run.
  const peers = (d.peers ?? []) as Array<{ label: string; peer: string; era: string; kind: string }>;
  const cheapest = (peer: string, era: string, defaultOnly: boolean) =>
    peers
      .filter((p) => p.peer === peer && p.era === era && (!defaultOnly || p.kind === 'default'))
      .map((p) => p.label)
      .reduce<string | undefined>((a, b) => (a === undefined || cpu[b]! < cpu[a]! ? b : a), undefined);
  const against: Record<string, string | undefined> = {
    'SDK v2 best': cheapest('SDK v2', '2025', false),
    'SDK v2 default': cheapest('SDK v2', '2025', true),
    'SDK v2 2026-07-28 best': cheapest('SDK v2', '2026', false),
    'SDK v2 2026-07-28 default': cheapest('SDK v2', '2026', true),
    'SDK v1 best': cheapest('SDK v1', '2025', false),
    'SDK v1 default': cheapest('SDK v1', '2025', true),
  };
  const r: Record<string, number> = {};
  for (const candor of ['candor stateless', 'candor stateful', 'candor 2026-07-28']) {
    for (const [key, label] of Object.entries(against)) {
      if (label !== undefined) r[`${candor} / ${key}`] = cpu[label]! / cpu[candorLabel(candor)]!;
    }
  }
  const server = (label: string | undefined) =>
    label === undefined ? 'n/a' : `${label}: ${fixed(cpu[label])} µs CPU, ${int(calls[label])} req/s`;
  const peerRow = (era: string, candor: string, best: string, def: string, goal?: number) => {
    const rb = r[`${candor} / ${best}`];
    const rd = r[`${candor} / ${def}`];
    return [
      era,
      server(candorLabel(candor)),
      server(against[best]),
      `**${times(rb)}**`,
      server(against[def]),
      times(rd),
      goal === undefined ? '' : `≥ ${goal}×${met(rb === undefined ? undefined : rb >= goal)}`,
    ];
  };
  const headline: EngineHeadline = {
    v2Best2025: r['candor stateless / SDK v2 best'],
    v2Best2026: r['candor 2026-07-28 / SDK v2 2026-07-28 best'],
    v1Best: r['candor stateless / SDK v1 best'],
    bare2025: rounds['candor stateful / bare node:http'],
    bare2026: rounds['candor 2026-07-28 / bare node:http (same body)'],
  };
  const peerTable = markdownTable(
    ['era', 'candor', 'peer at its best', 'ratio', 'peer at its default', 'ratio', 'goal'],
    [
      peerRow('2025, SDK v2', 'candor stateless', 'SDK v2 best', 'SDK v2 default', 10),
      peerRow('2026-07-28, SDK v2', 'candor 2026-07-28', 'SDK v2 2026-07-28 best', 'SDK v2 2026-07-28 default', 10),
      peerRow('2025, SDK v1', 'candor stateless', 'SDK v1 best', 'SDK v1 default'),
    ],
  );
  const bareRow = (label: string, key: string, bare: string, goal: number) => {
    const v = rounds[key];
    return [
      label,
      `${fixed(cpu[candorLabel(key.split(' / ')[0]!)])} µs`,
      `${fixed(cpu[bare])} µs`,
      `**${pct(v)}**`,
      `≥ ${pct(goal)}${met(v === undefined ? undefined : v >= goal)}`,
    ];
  };
  const bareTable = markdownTable(
    ['candor', 'CPU per request', 'bare node:http echo', 'of bare (median of rounds)', 'goal'],
    [
      bareRow('2025, stateful session', 'candor stateful / bare node:http', 'bare node:http echo', 0.8),
      bareRow('2025, stateless', 'candor stateless / bare node:http', 'bare node:http echo', 0.8),
      bareRow(
        '2026-07-28',
        'candor 2026-07-28 / bare node:http (same body)',
        'bare node:http echo (2026-07-28 body)',
        0.75,
      ),
    ],
  );
  const user = d.serverUserMicrosPerRequest as Record<string, number>;
  const sys = d.serverSysMicrosPerRequest as Record<string, number>;
  const perRound = (d.perRound ?? {}) as Record<string, number[]>;
  const cpuPerRound = (d.cpuPerRound ?? {}) as Record<string, number[]>;
  const spread = (v: number[] | undefined, fmt: (n: number) => string) =>
    v && v.length > 0 ? `${fmt(Math.min(...v))}–${fmt(Math.max(...v))}` : 'n/a';
  const all = markdownTable(
    ['server (configuration)', 'req/s (median)', 'rounds', 'CPU µs/req: user', 'system', 'total', 'rounds'],
    Object.keys(calls).map((label) => [
      label,
      int(calls[label]),
      spread(perRound[label], (n) => int(n)),
      fixed(user[label]),
      fixed(sys[label]),
      fixed(cpu[label]),
      spread(cpuPerRound[label], (n) => fixed(n)),
    ]),
  );
  const lists = (d.listLatencyMs ?? {}) as Record<string, number>;
  const listRows = [1000, 10000].map((n) => [
    `${n.toLocaleString('en')} tools`,
    `${fixed(lists[`candor@${n}`])} ms`,
    `${fixed(lists[`SDK v1@${n}`])} ms (${times(ratio(lists[`SDK v1@${n}`], lists[`candor@${n}`]))})`,
    `${fixed(lists[`SDK v2@${n}`])} ms (${times(ratio(lists[`SDK v2@${n}`], lists[`candor@${n}`]))})`,
  ]);
  const markdown = `## The engine: tools/call over Streamable HTTP

\`bench/engine-http.ts\`, ${runNote(f)}. Load from wrk (\`-t1 -c${d.connections}\`, \`bench/wrk/jsonrpc.lua\`: every request its own id), ${d.rounds} rounds of ${d.seconds} s per server, the order reversed every other round, every server in its own process and up for the whole run. The figure compared is the server process's CPU per request (\`/proc/<pid>/stat\`, user + system): on a shared machine requests per second move with the neighbours, CPU per request much less.

Every peer runs in named configurations. Its documented fast settings — SDK v2 \`createMcpHandler(factory, { responseMode: 'json' })\` for 2026-07-28 and, for 2025 traffic, its stateless transport with \`enableJsonResponse: true\` (\`sessionIdGenerator: undefined\`, a server per request, the SDK's documented stateless idiom); SDK v1 with \`enableJsonResponse: true\`, stateless and stateful. Its defaults: \`createMcpHandler(factory)\` as its docs start (2026-07-28 in \`responseMode: 'auto'\`, 2025 through its stateless fallback, whose answers are SSE streams) and SDK v1 without \`enableJsonResponse\` (SSE answers). **At its best** is whichever of these cost the least CPU per request in this run (named in the table: a documented fast setting is not always the fastest here), **at its default** the cheaper of its defaults. Server code: \`bench/servers/\`.

${peerTable}

![tools/call over Streamable HTTP, requests per second](bench-http.svg)

Against the floor, a bare node:http JSON-RPC echo with no MCP machinery (\`bench/servers/bare-node.ts\`); the goal is checked on the median of the rounds' CPU ratios:

${bareTable}

Every server in the run:

${all}

tools/list end to end over HTTP (mean of sequential requests):

${markdownTable(['size', 'candor', 'SDK v1', 'SDK v2'], listRows)}
`;
  return { markdown, headline };
}

/** The report's comparison keys name candor by mode; the run labels it so. */
function candorLabel(key: string): string {
  if (key === 'candor stateless') return 'candor (stateless)';
  if (key === 'candor stateful') return 'candor (stateful)';
  if (key === 'candor 2026-07-28') return 'candor (2026-07-28)';
  return key;
}
