/**
 * Registry benchmark (issue 2): registering 10,000 tools, manifest() for 1,000
 * and 10,000 tools, search over 100,000. Prints a table; not a test.
 */
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { ToolRegistry } from '../src/registry/registry.js';
import { defineTool } from '../src/tool/define.js';
import type { Effect, ToolDefinition } from '../src/tool/types.js';

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

const define = time(() => makeTools(10_000, true));
rows.push([
  'defineTool × 10,000 (zod input)',
  `${define.ms.toFixed(1)} ms (${((define.ms * 1000) / 10_000).toFixed(1)} µs/tool)`,
]);
const register = time(() => new ToolRegistry(quiet).add(...define.value));
rows.push(['registry.add × 10,000', `${register.ms.toFixed(1)} ms`]);

for (const n of [1_000, 10_000]) {
  const registry = new ToolRegistry(quiet).add(...define.value.slice(0, n));
  const cold = time(() => registry.manifestJson());
  const warm = time(() => registry.manifestJson(), 1000);
  const page = time(() => registry.manifest({ limit: 100 }), 1000);
  rows.push([`manifest JSON, ${n.toLocaleString('en')} tools, first call`, `${cold.ms.toFixed(2)} ms`]);
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
}

const width = Math.max(...rows.map(([l]) => l.length));
console.log('\nRegistry (issue 2)');
for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
