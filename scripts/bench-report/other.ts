/** The remaining sections: in-process engine and stdio, registry and memory, a one-tool server's RSS, host, workspace. */
import { type Figures, fixed, int, markdownTable, met, ratio, runNote, times } from './format.js';

/** `bench/engine-inprocess.ts`: stdio against SDK v1, the dispatcher in process, tools/list server time. */
export function inProcessSection(f: Figures): string {
  const d = f.data;
  const stdio = d.stdio;
  const seq = d.inProcessSequentialCallsPerSecond as Record<string, number>;
  const core = d.httpCoreCpuMicrosPerRequest as Record<string, number> | undefined;
  const rows = [
    [
      `tools/call over stdio, ${stdio.inFlight} in flight`,
      `${int(stdio.callsPerSecond.candor)} calls/s (${fixed(stdio.serverCpuMicrosPerCall.candor)} µs CPU)`,
      `SDK v1: ${int(stdio.callsPerSecond['SDK v1'])} (${fixed(stdio.serverCpuMicrosPerCall['SDK v1'])} µs CPU)`,
      `${times(ratio(stdio.callsPerSecond.candor, stdio.callsPerSecond['SDK v1']))} (CPU: ${times(ratio(stdio.serverCpuMicrosPerCall['SDK v1'], stdio.serverCpuMicrosPerCall.candor))})`,
    ],
    [
      'tools/call in process, one at a time: dispatcher, 2025 / 2026-07-28 era',
      `${int(seq['dispatcher, 2025 era'])} / ${int(seq['dispatcher, 2026-07-28 era'])} calls/s`,
      `through \`connectMemory()\`: ${int(seq['connectMemory, 2025 era'])} / ${int(seq['connectMemory, 2026-07-28 era'])}`,
      `goal ≥ 250k${met((seq['dispatcher, 2025 era'] ?? 0) >= 250_000)}`,
    ],
  ];
  if (core) {
    rows.push([
      "candor's own CPU per HTTP tools/call (its HTTP core without sockets), 2025 / 2026-07-28 era",
      `${fixed(core['2025 era'], 2)} / ${fixed(core['2026-07-28 era'], 2)} µs`,
      '',
      '',
    ]);
  }
  for (const [size, t] of Object.entries(d.listServerTimeMs as Record<string, { candor: number; sdkV1: number }>)) {
    rows.push([
      `tools/list, ${size} tools, server time in process`,
      `${fixed(t.candor, 3)} ms`,
      `SDK v1: ${fixed(t.sdkV1)} ms`,
      times(ratio(t.sdkV1, t.candor)),
    ]);
  }
  return `## In process and over stdio

\`bench/engine-inprocess.ts\`, ${runNote(f)}.

${markdownTable(['measurement', 'candor', 'compared with', 'ratio'], rows)}
`;
}

/** `bench/rss.ts`: a server that imports candor and serves one tool. */
export function rssSection(f: Figures): { markdown: string; oneTool?: number } {
  const rss = f.data.rssMiB as Record<string, number>;
  const zod = rss['one-tool server, zod schema, after its first tools/call'];
  const json = rss['one-tool server, JSON Schema, after its first tools/call'];
  const markdown = `## Memory of a one-tool server

\`bench/rss.ts\`, ${runNote(f)}: RSS (VmRSS) of fresh processes, median of ${f.data.rounds}. The server (\`test/fixtures/one-tool-server.mjs\`) imports candor, serves one tool over stdio and is measured after its first \`tools/call\` is answered. Which modules it loads is checked by \`test/api/one-tool-modules.test.ts\` (no jose, cedar-wasm, SDK client, ioredis, rate-limiter-flexible, picomatch or OpenTelemetry; none of the host, gateway, console or CLI code).

${markdownTable(
  ['process', 'RSS'],
  Object.entries(rss).map(([k, v]) => [k, `${fixed(v)} MiB`]),
)}

Goal: ≤ 50 MiB after the first call${met(zod === undefined ? undefined : Math.max(zod, json ?? 0) <= 50)}. What bounds it: node itself and the tool's validator. Node 20 alone is ${fixed(rss['node alone'])} MiB here and importing zod alone takes it to ${fixed(rss['node importing zod'])} MiB, before candor loads anything; a plain JSON Schema is validated with Ajv, about 10 MiB of its own. candor's import adds ${fixed((rss['node importing candor'] ?? Number.NaN) - (rss['node alone'] ?? Number.NaN))} MiB (its engine, both protocol eras, the Streamable HTTP and stdio transports, the pipeline and the lint rules a server runs at start: the package index loads them statically). jose (about 10 MiB), rate-limiter-flexible (11 MiB, it requires every store it ships) and picomatch (3 MiB) now load on first use: importing candor went from 66 to ${fixed(rss['node importing candor'])} MiB.
`;
  return { markdown, oneTool: zod };
}

/** `bench/registry.ts`, `bench/host-run.ts`, `bench/workspace-read-file.ts`: one paragraph each. */
export function smallSections(parts: { registry?: Figures; host?: Figures; workspace?: Figures }): string {
  const out: string[] = ['## Registry, host and workspace'];
  const { registry, host, workspace } = parts;
  if (registry) {
    const r = registry.data;
    const rss = r.servedRssMiB;
    const m = r.manifestJson10000;
    out.push(
      `\`bench/registry.ts\`, ${runNote(registry)}: \`defineTool\` × 10,000 takes ${int(r.defineSharedZodMs)} ms with one shared zod schema, ${int(r.defineDistinctZodMs)} ms with a zod schema each and ${int(r.defineRawJsonSchemaMs)} ms with raw JSON Schema (goal < 500 ms${met(r.defineDistinctZodMs < 500)}); heap per tool ${int(r.heapBytesPerTool.sharedSchema)} / ${int(r.heapBytesPerTool.zodSchemaEach)} bytes. The tools/list JSON of 10,000 tools is built in ${fixed(m?.firstMs)} ms after a change, then served from cache (${fixed(m?.cachedMicros, 2)} µs). RSS serving 10,000 tools after five lists: ${int(rss.sharedSchema)} MiB with a shared schema, ${int(rss.zodSchemaEach)} MiB with a zod schema each (0 tools: ${int(rss.baseline)} MiB; goal ≤ 100 MiB${met(rss.sharedSchema <= 100)}); a process that only builds 10,000 zod schemas, without candor, holds 110–118 MiB, so zod bounds that goal (profiles in [internals/performance](internals/performance.md)).`,
    );
  }
  if (host) {
    const h = host.data.runOverheadMicros;
    out.push(
      `\`bench/host-run.ts\`, ${runNote(host)}: \`host.run()\` adds ${fixed(h.single)} µs to a single call and ${fixed(h.perCallInBatch)} µs per call in batches of ${h.batch}, over calling the SDK client directly.`,
    );
  }
  if (workspace) {
    const [c, fs] = workspace.data.servers as Array<{ sequential: number; concurrent: number; cpu?: number }>;
    if (c && fs) {
      out.push(
        `\`bench/workspace-read-file.ts\`, ${runNote(workspace)}: \`read_file\` of a 4 KiB file over stdio against \`@modelcontextprotocol/server-filesystem\`'s \`read_text_file\`: ${int(c.sequential)} vs ${int(fs.sequential)} calls/s one at a time (${times(ratio(c.sequential, fs.sequential))}), ${int(c.concurrent)} vs ${int(fs.concurrent)} with 16 in flight (${times(ratio(c.concurrent, fs.concurrent))}), ${int(c.cpu)} vs ${int(fs.cpu)} µs of server CPU per call.`,
      );
    }
  }
  return `${out.join('\n\n')}\n`;
}
