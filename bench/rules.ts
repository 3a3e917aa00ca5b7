/**
 * What a Cedar rule decision costs in the gateway (goal < 50 µs per
 * call); not a test. 300 tools (the generated catalog: 6 servers, hints from
 * the verb, two servers trusted), four rules files: docs/cedar/team.cedar and
 * lockdown.cedar (they read a few attributes), rules that name some people and
 * tools, and rules that read tool names with a pattern and whole identities
 * (every tool and person its own class: the worst case).
 *
 * For each: the first `tools/list` of a new person through the rules' tool
 * scope (which decides `call` for every tool and `call_unconfirmed` for those
 * listed), the first call of every listed tool after it (`call` and
 * `call_unconfirmed`, as the gateway asks per call), the same calls again,
 * and a second person of the same groups. Plus one bare cedar-wasm
 * evaluation, which is what every decision cost before (once per person and
 * tool).
 *
 *   node --import tsx bench/rules.ts
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Peer } from '../src/engine/peer.js';
import { GATEWAY_META_KEY } from '../src/gateway/proxy-tool.js';
import { GatewayRules } from '../src/gateway/rules.js';
import type { ToolSource } from '../src/pipeline/types.js';
import { ToolRegistry } from '../src/registry/registry.js';
import { defineTool } from '../src/tool/define.js';
import type { AuthInfo, ToolDefinition } from '../src/tool/types.js';
import { CATALOG_SERVERS, serverTools } from '../test/fixtures/gateway/catalog.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
// A collection before each timed part, so one run's garbage is not the next one's cost.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const TRUSTED = new Set(CATALOG_SERVERS.slice(0, 2));

interface RawTool {
  name: string;
  title?: string;
  description?: string;
  annotations?: Record<string, unknown>;
}

function catalogTools(): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  for (const server of CATALOG_SERVERS) {
    for (const raw of serverTools(server) as RawTool[]) {
      const def = defineTool({
        name: `${server}__${raw.name}`,
        description: raw.description ?? '',
        input: { type: 'object' },
        annotations: (raw.annotations ?? {}) as never,
        handler: () => 'ok',
      }) as unknown as ToolDefinition;
      out.push({
        ...def,
        meta: {
          [GATEWAY_META_KEY]: { server, tool: raw.name, trust: TRUSTED.has(server) ? 'trusted' : 'untrusted' },
        },
      });
    }
  }
  return out;
}

/** Names some people and tools (the common way to single someone out): only those are told apart. */
const NAMED_RULES = `
permit (principal == User::"ada", action, resource);
permit (principal, action == Action::"call", resource == Tool::"github__list_issues");
permit (principal, action == Action::"call", resource)
when { resource in [Tool::"github__create_issue", Tool::"slack__create_message"] && principal.groups.contains("dev") };
permit (principal, action == Action::"call", resource) when { resource.readOnly };
permit (principal, action == Action::"call_unconfirmed", resource)
when { principal.client == "ci" && resource.idempotent };
`;

/** Reads tool names with a pattern and whole identities: every tool and person is its own class (the worst case). */
const WHOLE_RULES = `
permit (principal, action == Action::"call", resource)
when { resource.name like "*list*" && principal.groups.contains("dev") };
permit (principal, action, resource) when { [resource].contains(Tool::"github__list_issues") };
forbid (principal, action, resource)
when { resource.server == "cloud" && !principal.scopes.contains("cloud") };
permit (principal, action == Action::"call_unconfirmed", resource)
when { [principal].contains(User::"ci") && resource.idempotent };
`;

const auth = (subject: string, groups: string[]): AuthInfo =>
  ({ subject, clientId: 'cli', scopes: ['tools:read', 'tools:write'], claims: { groups } }) as unknown as AuthInfo;

interface Run {
  listed: number;
  firstList: number;
  listEvaluations: number;
  firstCalls: number;
  callEvaluations: number;
  repeated: number;
  samePeople: number;
  sameEvaluations: number;
}

async function once(label: string, text: string, tools: ToolDefinition[]): Promise<Run> {
  const rules = await GatewayRules.fromText(text, label);
  const registry = new ToolRegistry();
  registry.add(...tools);
  // The registry builds its manifest once; that is not the rules' cost.
  registry.manifest();
  const scope = rules.scope(registry, () => registry.version, undefined);
  const peer = new Peer({}, { onClose() {} });
  const list = (who: AuthInfo) => {
    // Without an inner scope the rules' scope answers at once, never with a promise.
    const view = scope({ peer, info: { auth: who }, era: 'modern' }) as ToolSource;
    return view.manifest().tools.length;
  };
  const dana = auth('dana', ['dev']);

  gc();
  let started = performance.now();
  const listed = list(dana);
  const firstList = performance.now() - started;
  const listEvaluations = rules.evaluations;

  // As the gateway's call path: the principal of the request's auth, then both actions.
  const listedTools = tools.filter((tool) => rules.permits(rules.principal(dana), tool, 'call'));
  started = performance.now();
  for (const tool of listedTools) {
    rules.permits(rules.principal(dana), tool, 'call');
    rules.permits(rules.principal(dana), tool, 'call_unconfirmed');
  }
  const firstCalls = (performance.now() - started) / listedTools.length;
  const callEvaluations = rules.evaluations - listEvaluations;

  const rounds = 20;
  started = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const tool of listedTools) {
      rules.permits(rules.principal(dana), tool, 'call');
      rules.permits(rules.principal(dana), tool, 'call_unconfirmed');
    }
  }
  const repeated = (performance.now() - started) / (listedTools.length * rounds);

  const before = rules.evaluations;
  gc();
  started = performance.now();
  list(auth('dora', ['dev']));
  const samePeople = performance.now() - started;
  return {
    listed,
    firstList,
    listEvaluations,
    firstCalls,
    callEvaluations,
    repeated,
    samePeople,
    sameEvaluations: rules.evaluations - before,
  };
}

/** Five runs (fresh rules each), medians: this machine is shared, single runs are noisy. */
async function measure(label: string, text: string, tools: ToolDefinition[], runs = 5): Promise<void> {
  const all: Run[] = [];
  for (let i = 0; i < runs; i++) all.push(await once(label, text, tools));
  const median = (pick: (run: Run) => number) => all.map(pick).sort((a, b) => a - b)[Math.floor(runs / 2)]!;
  const r = all[0]!;
  console.log(
    `${label}${runs > 1 ? ` (median of ${runs})` : ''}: first tools/list of a person, ${r.listed} of ${tools.length} listed: ${median((x) => x.firstList).toFixed(2)} ms (${r.listEvaluations} Cedar evaluations); ` +
      `first call of each listed tool after it: ${(median((x) => x.firstCalls) * 1000).toFixed(2)} µs per call (${r.callEvaluations} evaluations); ` +
      `repeated: ${(median((x) => x.repeated) * 1000).toFixed(2)} µs per call; ` +
      `a second person of the same groups lists in ${median((x) => x.samePeople).toFixed(2)} ms (${r.sameEvaluations} evaluations)`,
  );
}

/** One bare evaluation, as every first decision cost before classes: a new person each time. */
async function bare(tools: ToolDefinition[]): Promise<void> {
  const rules = await GatewayRules.fromText(WHOLE_RULES, 'whole');
  for (let i = 0; i < 300; i++)
    rules.permits({ id: `warm${i}`, groups: [], department: '', client: '', scopes: [] }, tools[i]!, 'call');
  const n = 3000;
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    rules.permits(
      { id: `p${i}`, groups: ['dev'], department: '', client: 'cli', scopes: [] },
      tools[i % tools.length]!,
      'call',
    );
  }
  const ms = performance.now() - started;
  console.log(
    `one cedar-wasm evaluation (warm, a new person each time): ${((ms * 1000) / n).toFixed(1)} µs per decision`,
  );
}

const tools = catalogTools();
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${cpus().length} cores; ${tools.length} tools`,
);
// Cold: the first rules loaded in this process (cedar-wasm compiles on first use).
await measure('team.cedar (cold process)', readFileSync(join(repo, 'docs/cedar/team.cedar'), 'utf8'), tools, 1);
// As the gateway does at start: evaluations in slices until V8 has optimised cedar-wasm.
const warm = await GatewayRules.fromText(readFileSync(join(repo, 'docs/cedar/team.cedar'), 'utf8'), 'warm-up');
const warmStarted = performance.now();
await warm.warmUp();
console.log(
  `warm-up (600 evaluations in slices, as the gateway runs at start): ${(performance.now() - warmStarted).toFixed(0)} ms`,
);
await measure('team.cedar', readFileSync(join(repo, 'docs/cedar/team.cedar'), 'utf8'), tools);
await measure('lockdown.cedar', readFileSync(join(repo, 'docs/cedar/lockdown.cedar'), 'utf8'), tools);
await measure('rules naming people and tools', NAMED_RULES, tools);
await measure('rules reading names and whole identities', WHOLE_RULES, tools);
await bare(tools);
