/**
 * Setup and undo over random histories of a client file: the client rewrites it (new
 * keys of its own, another indentation), the person adds and removes servers in the
 * client, servers are added behind the gateway and trusted there, setup runs (again)
 * and undo runs. Whatever the order, no server and no key the client wrote is lost:
 * every server the person has is in the client's file or behind the gateway, and after
 * undo each is in the client's file with every key it had.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { serversIn } from '../../src/setup/client-file.js';
import { claudeCode } from '../../src/setup/clients/claude-code.js';
import { gemini } from '../../src/setup/clients/gemini.js';
import { vscode } from '../../src/setup/clients/vscode.js';
import { planSetup } from '../../src/setup/plan.js';
import type { ClientSpec, MovedServer, ServerEntry } from '../../src/setup/types.js';
import { planUndo } from '../../src/setup/undo-plan.js';

const NAMES = ['memory', 'github', 'fs', 'db.main', 'notes-2', 'web'];
const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,7}$/);
const secret = fc.string({ minLength: 1, maxLength: 12 });
const envMap = fc.dictionary(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,6}$/), secret, { maxKeys: 2 });
const stdio = { command: word, args: fc.array(word, { maxLength: 3 }) };

/** Entries as each client writes them, foreign keys included. */
const ENTRIES: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  'claude-code': fc.oneof(
    fc.record({ type: fc.constant('stdio'), ...stdio, env: envMap }, { requiredKeys: ['type', 'command'] }),
    fc.record(
      { type: fc.constantFrom('http', 'sse'), url: word.map((w) => `https://${w}.example/mcp`), headers: envMap },
      { requiredKeys: ['type', 'url'] },
    ),
  ),
  gemini: fc.oneof(
    fc.record(
      {
        ...stdio,
        env: envMap,
        cwd: word.map((w) => `/srv/${w}`),
        timeout: fc.integer({ min: 1, max: 600_000 }),
        trust: fc.boolean(),
        excludeTools: fc.array(word, { maxLength: 2 }),
        includeTools: fc.array(word, { maxLength: 2 }),
      },
      { requiredKeys: ['command'] },
    ),
    fc.record(
      {
        httpUrl: word.map((w) => `https://${w}.example/mcp`),
        headers: envMap,
        timeout: fc.integer({ min: 1, max: 9 }),
      },
      { requiredKeys: ['httpUrl'] },
    ),
  ),
  vscode: fc.record(
    {
      type: fc.constant('stdio'),
      ...stdio,
      env: envMap,
      envFile: fc.constant(`\${workspaceFolder}/.env`),
      dev: fc.record({ watch: word }),
    },
    { requiredKeys: ['type', 'command'] },
  ),
};
const CLIENTS: Record<string, ClientSpec> = { 'claude-code': claudeCode, gemini, vscode };

type Op =
  | { kind: 'rewrite'; key: string; value: unknown; indent: number }
  | { kind: 'add'; name: string; entry: Record<string, unknown> }
  | { kind: 'remove'; pick: number }
  | { kind: 'behind'; name: string; command: string; args: string[] }
  | { kind: 'trust'; pick: number }
  | { kind: 'setup' }
  | { kind: 'undo' };

const ops = (client: string): fc.Arbitrary<Op> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('rewrite' as const),
      key: fc.constantFrom('userID', 'numStartups', 'tipsHistory', 'theme'),
      // As JSON has it (no -0).
      value: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown),
      indent: fc.constantFrom(0, 2, 4),
    }),
    fc.record({ kind: fc.constant('add' as const), name: fc.constantFrom(...NAMES), entry: ENTRIES[client]! }),
    fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    fc.record({
      kind: fc.constant('behind' as const),
      name: fc.constantFrom(...NAMES),
      command: word,
      args: fc.array(word, { maxLength: 2 }),
    }),
    fc.record({ kind: fc.constant('trust' as const), pick: fc.nat() }),
    fc.constant({ kind: 'setup' as const }),
    fc.constant({ kind: 'undo' as const }),
  );

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2 } };

interface World {
  clientText: string | undefined;
  gatewayText: string | undefined;
  record:
    | { before: string | undefined; written: string; changedBetween: boolean; moved: Record<string, MovedServer> }
    | undefined;
  /** Every server the person has, as the client's entry for it. */
  model: Map<string, Record<string, unknown>>;
  /** The servers added behind the gateway (their client entry follows the gateway's). */
  behind: Set<string>;
  /** The keys the client wrote last. */
  foreign: Record<string, unknown>;
}

function gatewayServers(w: World): Record<string, Record<string, unknown>> {
  const parsed = parse(w.gatewayText ?? '{}') as { servers?: Record<string, Record<string, unknown>> };
  return parsed.servers ?? {};
}

function run(clientId: string, history: Op[]): void {
  const client = CLIENTS[clientId]!;
  const mapPath = client.mapPath;
  const file = '/home/me/client.json';
  const comment = client.comments ? '// the servers\n' : '';
  const w: World = {
    clientText: `{\n  ${comment}"${mapPath[0]}": {},\n  "inputs": []\n}\n`,
    gatewayText: undefined,
    record: undefined,
    model: new Map(),
    behind: new Set(),
    foreign: { inputs: [] },
  };
  const clientMap = () => serversIn(w.clientText ?? '', file, mapPath);
  for (const op of history) {
    if (op.kind === 'rewrite') {
      const parsed = parse(w.clientText ?? '{}') as Record<string, unknown>;
      parsed[op.key] = op.value;
      w.foreign[op.key] = op.value;
      w.clientText = `${JSON.stringify(parsed, null, op.indent)}\n`;
    } else if (op.kind === 'add') {
      if (w.model.has(op.name) || op.name in clientMap()) continue;
      w.clientText = applyEdits(w.clientText!, modify(w.clientText!, [...mapPath, op.name], op.entry, FORMAT));
      w.model.set(op.name, op.entry);
    } else if (op.kind === 'remove') {
      const names = Object.keys(clientMap()).filter((n) => n !== 'candor');
      if (names.length === 0) continue;
      const name = names[op.pick % names.length]!;
      w.clientText = applyEdits(w.clientText!, modify(w.clientText!, [...mapPath, name], undefined, FORMAT));
      w.model.delete(name);
    } else if (op.kind === 'behind' || op.kind === 'trust') {
      if (!w.record) continue;
      if (op.kind === 'behind') {
        if (w.model.has(op.name)) continue;
        const upstream: ServerEntry = { command: op.command, args: op.args };
        w.gatewayText = applyEdits(w.gatewayText!, modify(w.gatewayText!, ['servers', op.name], upstream, FORMAT));
        w.model.set(op.name, client.writeEntry(upstream) as Record<string, unknown>);
        w.behind.add(op.name);
      } else {
        const names = Object.keys(gatewayServers(w));
        if (names.length === 0) continue;
        const name = names[op.pick % names.length]!;
        w.gatewayText = applyEdits(
          w.gatewayText!,
          modify(w.gatewayText!, ['servers', name, 'trust'], 'trusted', FORMAT),
        );
        if (w.behind.has(name))
          w.model.set(name, client.writeEntry(gatewayServers(w)[name]!) as Record<string, unknown>);
      }
    } else if (op.kind === 'setup') {
      let plan: ReturnType<typeof planSetup>;
      try {
        plan = planSetup({
          client,
          file,
          mapPath,
          clientText: w.clientText,
          servers: clientMap(),
          gatewayText: w.gatewayText,
          lockName: 'candor.lock.json',
          moved: w.record?.moved ?? {},
          earlier: w.record !== undefined,
          launch: { kind: 'stdio', command: 'candor', args: ['gateway', '--stdio'] },
          readEnvFile: () => ({ FROM_ENV_FILE: 'x' }),
        });
      } catch (error) {
        // Nothing to take over is the one refusal these histories can meet; nothing was written.
        expect((error as Error).message).toMatch(/has no servers at/);
        continue;
      }
      w.record = {
        before: w.record ? w.record.before : w.clientText,
        written: hash(plan.clientAfter),
        changedBetween:
          w.record !== undefined && (w.record.changedBetween || hash(w.clientText ?? '') !== w.record.written),
        moved: plan.moved,
      };
      w.clientText = plan.clientAfter;
      w.gatewayText = plan.gatewayAfter;
    } else {
      if (!w.record) continue;
      const plan = planUndo({
        client,
        file,
        mapPath,
        current: w.clientText,
        before: w.record.before,
        unchangedSinceSetup:
          w.clientText !== undefined && !w.record.changedBetween && hash(w.clientText) === w.record.written,
        gatewayText: w.gatewayText,
        moved: w.record.moved,
      });
      expect(plan.leftovers).toEqual({});
      w.clientText = plan.text;
      w.gatewayText = undefined;
      w.record = undefined;
      w.behind.clear();
      const after = clientMap();
      expect(Object.keys(after).sort()).toEqual([...w.model.keys()].sort());
      for (const [name, entry] of w.model) expect(after[name]).toEqual(entry);
    }
    // At every step: each server is in the client's file or behind the gateway, and the client's own keys stay.
    const inClient = clientMap();
    const behind = w.record ? gatewayServers(w) : {};
    for (const name of w.model.keys())
      expect(name in inClient || name in behind, `${name} lost after ${op.kind}`).toBe(true);
    const top = parse(w.clientText ?? '{}') as Record<string, unknown>;
    for (const [key, value] of Object.entries(w.foreign)) expect(top[key]).toEqual(value);
  }
}

describe('setup and undo over random histories lose no server and no key', () => {
  for (const client of Object.keys(CLIENTS)) {
    it(client, () => {
      fc.assert(
        fc.property(fc.array(ops(client), { minLength: 1, maxLength: 25 }), (history) => {
          run(client, [...history, { kind: 'undo' }]);
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('undo hands back what the client cannot take', () => {
  it('a remote server added behind the gateway of Claude Desktop (stdio only) is a leftover with the reason', async () => {
    const { claudeDesktop } = await import('../../src/setup/clients/claude-desktop.js');
    const before = '{ "mcpServers": { "memory": { "command": "node", "args": ["m.js"] } } }';
    const setup = planSetup({
      client: claudeDesktop,
      file: 'claude_desktop_config.json',
      mapPath: ['mcpServers'],
      clientText: before,
      servers: serversIn(before, 'f', ['mcpServers']),
      gatewayText: undefined,
      lockName: 'candor.lock.json',
      moved: {},
      earlier: false,
      launch: { kind: 'stdio', command: 'candor', args: [] },
    });
    const gatewayText = applyEdits(
      setup.gatewayAfter,
      modify(setup.gatewayAfter, ['servers', 'docs'], { url: 'https://docs.example/mcp' }, FORMAT),
    );
    const plan = planUndo({
      client: claudeDesktop,
      file: 'claude_desktop_config.json',
      mapPath: ['mcpServers'],
      current: setup.clientAfter,
      before,
      unchangedSinceSetup: true,
      gatewayText,
      moved: setup.moved,
    });
    expect(plan.placed).toEqual(['memory']);
    expect(plan.leftovers).toEqual({
      docs: {
        entry: { url: 'https://docs.example/mcp' },
        reason: 'Claude Desktop cannot take it: the client starts stdio servers only, and this one is remote',
      },
    });
    expect(plan.text).toBe(before);
  });
});
