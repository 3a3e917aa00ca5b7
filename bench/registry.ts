/**
 * Registry benchmark: defining and registering 10,000 tools
 * (one shared zod schema, a zod schema each, raw JSON Schemas), heap bytes per
 * tool, the RSS of a server process serving them, manifest() for 1,000 and
 * 10,000 tools, search over 100,000. Prints a table; not a test.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { z } from 'zod';
import { ToolRegistry } from '../src/registry/registry.js';
import { defineTool } from '../src/tool/define.js';
import type { Effect, ToolDefinition } from '../src/tool/types.js';
import { JSON_HEADERS, post, record } from './_harness.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const here = dirname(fileURLToPath(import.meta.url));

const EFFECTS: Effect[] = ['read', 'additive', 'destructive'];
const input = z.object({ path: z.string().describe('A path'), limit: z.number().int().optional() });

function makeTools(count: number, withZod: boolean): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  for (let i = 0; i < count; i++) {
    tools.push(
      defineTool({
        name: `tool_${i}`,
        description: `Tool number ${i}: does ${EFFECTS[i % 3]} things with files and ${i % 7 === 0 ? 'the web' : 'notes'}.`,
        input: withZod ? input : { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        effect: EFFECTS[i % 3]!,
        world: i % 7 === 0 ? 'open' : 'closed',
        tags: i % 100 === 0 ? ['hundred'] : ['common'],
        category: `cat${i % 20}`,
        handler: () => 'ok',
      }),
    );
  }
  return tools;
}

function time<T>(fn: () => T, runs = 1): { ms: number; value: T } {
  let value!: T;
  const start = performance.now();
  for (let i = 0; i < runs; i++) value = fn();
  return { ms: (performance.now() - start) / runs, value };
}

const rows: Array<[string, string]> = [];
const quiet = { logger: () => {}, env: {} };
const figures: Record<string, unknown> = {};

const define = time(() => makeTools(10_000, true));
rows.push([
  'defineTool × 10,000, one shared zod schema',
  `${define.ms.toFixed(1)} ms (${((define.ms * 1000) / 10_000).toFixed(1)} µs/tool)`,
]);
figures.defineSharedZodMs = define.ms;

// A zod schema per tool, built before the clock starts (building them is the caller's cost).
const perTool = Array.from({ length: 10_000 }, () =>
  z.object({ path: z.string().describe('A path'), limit: z.number().int().optional() }),
);
const distinct = time(() =>
  perTool.map((input, i) =>
    defineTool({
      name: `own_${i}`,
      description: `Tool ${i}.`,
      input,
      effect: 'read',
      world: 'closed',
      handler: () => 'ok',
    }),
  ),
);
rows.push(['defineTool × 10,000, a zod schema each', `${distinct.ms.toFixed(1)} ms`]);
figures.defineDistinctZodMs = distinct.ms;
const raw = time(() => makeTools(10_000, false));
rows.push(['defineTool × 10,000, raw JSON Schema each', `${raw.ms.toFixed(1)} ms`]);
figures.defineRawJsonSchemaMs = raw.ms;

const register = time(() => new ToolRegistry(quiet).add(...define.value));
rows.push(['registry.add × 10,000', `${register.ms.toFixed(1)} ms`]);
figures.registryAddMs = register.ms;

/** Heap bytes per tool: definitions, a registry and its built manifest (the schema objects count too). */
function heapPerTool(make: () => ToolDefinition[]): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const tools = make();
  const registry = new ToolRegistry(quiet).add(...tools);
  registry.manifestJson();
  gc();
  const bytes = (process.memoryUsage().heapUsed - before) / tools.length;
  if (registry.size !== tools.length) throw new Error('registry lost tools');
  return bytes;
}
const sharedSchema = z.object({ path: z.string(), limit: z.number().optional() });
const heapShared = heapPerTool(() =>
  Array.from({ length: 10_000 }, (_, i) =>
    defineTool({
      name: `m_${i}`,
      description: `Tool ${i}.`,
      input: sharedSchema,
      effect: 'read',
      world: 'closed',
      handler: () => 'ok',
    }),
  ),
);
const heapDistinct = heapPerTool(() =>
  Array.from({ length: 10_000 }, (_, i) =>
    defineTool({
      name: `d_${i}`,
      description: `Tool ${i}.`,
      input: z.object({ path: z.string(), limit: z.number().optional() }),
      effect: 'read',
      world: 'closed',
      handler: () => 'ok',
    }),
  ),
);
rows.push([
  'heap per tool, shared schema / a zod schema each',
  `${heapShared.toFixed(0)} / ${heapDistinct.toFixed(0)} bytes`,
]);
figures.heapBytesPerTool = { sharedSchema: heapShared, zodSchemaEach: heapDistinct };

/** RSS of a server process serving `count` tools after five tools/list answers (plain node, dist/). */
async function servedRss(count: number, schemas: 'shared' | 'distinct', nodeFlags: string[] = []): Promise<number> {
  const child = spawn(
    process.execPath,
    [...nodeFlags, join(here, 'servers', 'candor-many.mjs'), String(count), schemas],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`candor-many exited with ${code}`)));
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    for (let i = 0; i < 5; i++) {
      const list = await post(url, { jsonrpc: '2.0', id: i, method: 'tools/list' }, JSON_HEADERS);
      if (list.json?.result?.tools?.length !== count) throw new Error(`listed ${list.json?.result?.tools?.length}`);
    }
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  } finally {
    child.kill('SIGKILL');
  }
}
const rss = {
  baseline: await servedRss(0, 'shared'),
  sharedSchema: await servedRss(10_000, 'shared'),
  zodSchemaEach: await servedRss(10_000, 'distinct'),
  sharedSchemaSmallYoungGen: await servedRss(10_000, 'shared', ['--max-semi-space-size=2']),
};
rows.push(['RSS serving 0 tools (node + zod + candor)', `${rss.baseline.toFixed(0)} MiB`]);
rows.push([
  'RSS serving 10,000 tools, shared schema / a zod schema each',
  `${rss.sharedSchema.toFixed(0)} / ${rss.zodSchemaEach.toFixed(0)} MiB`,
]);
rows.push(['same, shared schema, node --max-semi-space-size=2', `${rss.sharedSchemaSmallYoungGen.toFixed(0)} MiB`]);
figures.servedRssMiB = rss;

for (const n of [1_000, 10_000]) {
  const registry = new ToolRegistry(quiet).add(...define.value.slice(0, n));
  const cold = time(() => registry.manifestJson());
  const warm = time(() => registry.manifestJson(), 1000);
  const page = time(() => registry.manifest({ limit: 100 }), 1000);
  rows.push([`manifest JSON, ${n.toLocaleString('en')} tools, first call`, `${cold.ms.toFixed(2)} ms`]);
  figures[`manifestJson${n}`] = { firstMs: cold.ms, cachedMicros: warm.ms * 1000, pageOf100Micros: page.ms * 1000 };
  rows.push([`manifest JSON, ${n.toLocaleString('en')} tools, cached`, `${(warm.ms * 1000).toFixed(2)} µs`]);
  rows.push([`manifest page of 100, ${n.toLocaleString('en')} tools`, `${(page.ms * 1000).toFixed(2)} µs`]);
}

const many = time(() => makeTools(100_000, false));
const big = new ToolRegistry(quiet).add(...many.value);
big.search({ readOnly: true }); // first call sorts names once
const searches: Array<[string, Parameters<ToolRegistry['search']>[0]]> = [
  ['tag (1%) + readOnly', { tags: ['hundred'], readOnly: true }],
  ['readOnly + openWorld', { readOnly: true, openWorld: true }],
  ['category', { category: 'cat7' }],
  ['text "web"', { text: 'web' }],
  ['text "tool_99999"', { text: 'tool_99999' }],
];
for (const [label, query] of searches) {
  const r = time(() => big.search(query), 20);
  rows.push([`search over 100,000: ${label}`, `${r.ms.toFixed(2)} ms (${r.value.total.toLocaleString('en')} hits)`]);
  figures[`search: ${label}`] = r.ms;
}
record('registry', figures);

const width = Math.max(...rows.map(([l]) => l.length));
console.log('\nRegistry');
for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
