import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { defineTool } from '../tool/define.js';
import type { ToolDefinition } from '../tool/types.js';
import { GATEWAY_META_KEY } from './proxy-tool.js';
import { GatewayRules, type RulesPrincipal } from './rules.js';

type Cedar = typeof import('@cedar-policy/cedar-wasm/nodejs');
const cedar = createRequire(import.meta.url)('@cedar-policy/cedar-wasm/nodejs') as Cedar;
const docs = path.resolve(import.meta.dirname, '../../docs/cedar');
const dir = mkdtempSync(path.join(tmpdir(), 'candor-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rules that read whole identities (an entity inside a set): each tool and person is its own class. */
const FULL_IDENTITY_RULES = `
permit (principal, action == Action::"call", resource) when { [resource].contains(Tool::"files__read_file") };
permit (principal, action, resource) when { [principal, User::"x"].contains(User::"bob") && resource.readOnly };
`;

/** Rules that name some people and tools (and read servers, clients and scopes, not names). */
const IDENTITY_RULES = `
permit (principal == User::"alice", action, resource);
permit (principal, action == Action::"call", resource == Tool::"files__read_file");
permit (principal, action == Action::"call", resource)
when { resource in [Tool::"db__list_rows", Tool::"cloud__create_vm"] && principal.groups.contains("dev") };
forbid (principal, action, resource)
when { resource.server == "payments" && !principal.scopes.contains("pay") };
permit (principal, action == Action::"call_unconfirmed", resource)
when { principal.client == "ci" && resource.idempotent && resource != Tool::"db__delete_row" };
permit (principal, action == Action::"call", resource)
when { resource.server == "cloud" && principal.department == "R&D" };
`;

function tool(
  server: string,
  name: string,
  effect: 'read' | 'additive' | 'destructive',
  options: { world?: 'open' | 'closed'; idempotent?: boolean; trusted?: boolean } = {},
): ToolDefinition {
  const def = defineTool({
    name: `${server}__${name}`,
    description: 'x',
    effect,
    world: options.world ?? 'closed',
    ...(effect === 'read' ? {} : { idempotent: options.idempotent ?? false }),
    handler: () => 'ok',
  }) as unknown as ToolDefinition;
  return {
    ...def,
    meta: { [GATEWAY_META_KEY]: { server, tool: name, trust: options.trusted ? 'trusted' : 'untrusted' } },
  };
}

/** A small deterministic generator (no flaky inputs). */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    // The high bits: an LCG's low bits repeat with a short period.
    return (state >>> 15) % n;
  };
}

/** Cedar asked directly, with every attribute, no classes and no cache: the reference. */
function reference(text: string, principal: RulesPrincipal, def: ToolDefinition, action: string): boolean {
  const meta = def.meta![GATEWAY_META_KEY] as { server: string; tool: string; trust: string };
  const id = `${meta.server}__${meta.tool}`;
  const answer = cedar.isAuthorized({
    principal: { type: 'User', id: principal.id },
    action: { type: 'Action', id: action },
    resource: { type: 'Tool', id },
    context: {},
    policies: { staticPolicies: text },
    entities: [
      {
        uid: { type: 'User', id: principal.id },
        attrs: {
          groups: principal.groups,
          department: principal.department,
          client: principal.client,
          scopes: principal.scopes,
        },
        parents: [],
      },
      {
        uid: { type: 'Tool', id },
        attrs: {
          server: meta.server,
          name: meta.tool,
          readOnly: def.hints.readOnlyHint,
          destructive: def.hints.destructiveHint,
          idempotent: def.hints.idempotentHint,
          openWorld: def.hints.openWorldHint,
          trusted: meta.trust === 'trusted',
        },
        parents: [],
      },
    ],
  });
  if (answer.type !== 'success') throw new Error(JSON.stringify(answer.errors));
  return answer.response.decision === 'allow';
}

const SERVERS = ['files', 'payments', 'cloud', 'db'];
const NAMES = ['read_file', 'list_rows', 'delete_row', 'charge', 'create_vm', 'list_vms', 'write_file'];
const EFFECTS = ['read', 'additive', 'destructive'] as const;
const GROUPS = ['dev', 'admin', 'ops', 'a,b'];

function tools(next: (n: number) => number, count: number): ToolDefinition[] {
  return Array.from({ length: count }, () =>
    tool(SERVERS[next(SERVERS.length)]!, NAMES[next(NAMES.length)]!, EFFECTS[next(3)]!, {
      world: next(2) === 0 ? 'open' : 'closed',
      idempotent: next(2) === 0,
      trusted: next(3) === 0,
    }),
  );
}

function people(next: (n: number) => number, count: number): RulesPrincipal[] {
  return Array.from({ length: count }, () => ({
    id: ['alice', 'bob', 'local', 'carol'][next(4)]!,
    groups: GROUPS.filter(() => next(3) === 0),
    department: ['Finance', 'R&D', ''][next(3)]!,
    client: ['ci', 'cli', ''][next(3)]!,
    scopes: ['pay', 'tools:destructive', 'tools:read'].filter(() => next(2) === 0),
  }));
}

describe('GatewayRules decisions', () => {
  for (const [label, text] of [
    ['docs/cedar/team.cedar', undefined],
    ['docs/cedar/lockdown.cedar', undefined],
    ['rules that name people and tools', IDENTITY_RULES],
    ['rules that read whole identities', FULL_IDENTITY_RULES],
  ] as const) {
    test(`${label}: every decision equals Cedar's own, with every attribute and no cache`, async () => {
      const rulesText = text ?? readFileSync(path.join(docs, path.basename(label)), 'utf8');
      const rules = await GatewayRules.fromText(rulesText, label);
      const next = random(label.length);
      const toolList = tools(next, 120);
      const persons = people(next, 12);
      let allowed = 0;
      let checked = 0;
      // Thousands of Cedar evaluations: on Node 20 this loop aborted its process one run in two
      // until src/util/wasm-inlining.ts turned off V8's inlining of calls into WebAssembly.
      const wrong: string[] = [];
      for (const principal of persons) {
        for (const def of toolList) {
          for (const action of ['call', 'call_unconfirmed'] as const) {
            const want = reference(rulesText, principal, def, action);
            if (rules.permits(principal, def, action) !== want) {
              wrong.push(
                `${action} ${def.name} by ${JSON.stringify(principal)}: Cedar says ${want ? 'allow' : 'deny'}`,
              );
            }
            if (want) allowed++;
            checked++;
          }
        }
      }
      expect(wrong).toEqual([]);
      // Both answers occur, so the comparison can tell a wrong class from a right one.
      expect(allowed).toBeGreaterThan(0);
      expect(allowed).toBeLessThan(checked);
    });
  }

  test('team rules read a few attributes, so 300 tools cost at most 8 Cedar evaluations per person class', async () => {
    const rules = await GatewayRules.load(path.join(docs, 'team.cedar'));
    expect(rules.reads.resource.id).toBe(false);
    expect([...rules.reads.resource.attrs].sort()).toEqual(['destructive', 'readOnly', 'trusted']);
    expect(rules.reads.principal.id).toBe(false);
    expect([...rules.reads.principal.attrs]).toEqual(['groups']);
    const list = tools(random(7), 300);
    const dana = { id: 'dana', groups: ['dev'], department: '', client: 'cli', scopes: [] };
    for (const def of list) rules.permits(dana, def, 'call');
    expect(rules.evaluations).toBeLessThanOrEqual(8);
    // Another person of the same groups: no evaluation at all.
    const before = rules.evaluations;
    for (const def of list) rules.permits({ ...dana, id: 'dora', client: 'web' }, def, 'call');
    expect(rules.evaluations).toBe(before);
  });

  test('rules that name people and tools tell only those apart; whole identities make each its own class', async () => {
    const named = await GatewayRules.fromText(IDENTITY_RULES, 'identity.cedar');
    expect(named.reads.resource.id).toBe(false);
    expect([...named.reads.resource.ids].sort()).toEqual([
      'cloud__create_vm',
      'db__delete_row',
      'db__list_rows',
      'files__read_file',
    ]);
    expect([...named.reads.resource.attrs].sort()).toEqual(['idempotent', 'server']);
    expect(named.reads.principal.id).toBe(false);
    expect([...named.reads.principal.ids]).toEqual(['alice']);
    // Two people not named by the rules, with the same claims: one evaluation serves both.
    const list = tools(random(3), 50);
    const bob = { id: 'bob', groups: ['dev'], department: '', client: 'cli', scopes: [] };
    for (const def of list) named.permits(bob, def, 'call');
    const before = named.evaluations;
    for (const def of list) named.permits({ ...bob, id: 'carol' }, def, 'call');
    expect(named.evaluations).toBe(before);
    for (const def of list) named.permits({ ...bob, id: 'alice' }, def, 'call');
    expect(named.evaluations).toBeGreaterThan(before);
    const whole = await GatewayRules.fromText(FULL_IDENTITY_RULES, 'whole.cedar');
    expect(whole.reads.resource.id).toBe(true);
    expect(whole.reads.principal.id).toBe(true);
  });

  test('a tool whose hints change is judged again (the list after tightening)', async () => {
    const rules = await GatewayRules.load(path.join(docs, 'team.cedar'));
    const nobody = { id: 'nobody', groups: [], department: '', client: '', scopes: [] };
    expect(rules.permits(nobody, tool('notes', 'write_note', 'read'), 'call')).toBe(true);
    // The same name, now known to write: not read-only to Cedar any more.
    expect(rules.permits(nobody, tool('notes', 'write_note', 'additive'), 'call')).toBe(false);
  });

  test('a person whose claims change is judged on the new claims', async () => {
    const rules = await GatewayRules.load(path.join(docs, 'team.cedar'));
    const drop = tool('db', 'drop_table', 'destructive');
    expect(rules.permits({ id: 'ada', groups: ['dev'], department: '', client: '', scopes: [] }, drop, 'call')).toBe(
      false,
    );
    expect(
      rules.permits({ id: 'ada', groups: ['dev', 'admin'], department: '', client: '', scopes: [] }, drop, 'call'),
    ).toBe(true);
    // A group named "dev,admin" is not the groups dev and admin.
    expect(
      rules.permits({ id: 'ada', groups: ['dev,admin'], department: '', client: '', scopes: [] }, drop, 'call'),
    ).toBe(false);
  });

  test('reload: changed rules hold at once; a broken file throws and the rules in force stay', async () => {
    const file = path.join(dir, 'reload.cedar');
    writeFileSync(file, 'permit (principal, action == Action::"call", resource) when { resource.readOnly };\n');
    const rules = await GatewayRules.load(file);
    const write = tool('notes', 'write_note', 'additive');
    const local = { id: 'local', groups: [], department: '', client: '', scopes: [] };
    expect(rules.permits(local, write, 'call')).toBe(false);
    writeFileSync(file, 'permit (principal, action == Action::"call", resource);\n');
    await rules.reload();
    expect(rules.generation).toBe(1);
    expect(rules.permits(local, write, 'call')).toBe(true);
    writeFileSync(file, 'permit (principal, action, resource) when { resource.readonly };\n');
    await expect(rules.reload()).rejects.toThrow(/reload\.cedar:1:\d+: .*readonly/);
    expect(rules.generation).toBe(1);
    expect(rules.permits(local, write, 'call')).toBe(true);
  });
});
