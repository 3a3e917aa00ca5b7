/**
 * candor/host against a third-party server from npm over stdio:
 * @modelcontextprotocol/server-memory. Its hints are its own word; until the
 * user trusts it (or declares its tools' effects in an overrides file), they
 * may only make policy stricter.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ConfirmAnswer,
  type ConfirmRequest,
  createHost,
  type Host,
  type HostOptions,
} from '../../src/host/index.js';

const require = createRequire(import.meta.url);
const memoryServer = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'candor-host-memory-'));
const hosts: Host[] = [];

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
async function memoryHost(options: Partial<HostOptions> & { trust?: 'trusted' | 'untrusted' } = {}): Promise<Host> {
  const { trust, ...rest } = options;
  const host = await createHost({
    servers: {
      memory: {
        command: process.execPath,
        args: [memoryServer],
        env: { MEMORY_FILE_PATH: join(dir, `memory-${files++}.jsonl`) },
        stderr: 'ignore',
        era: 'legacy',
        ...(trust ? { trust } : {}),
      },
    },
    ...rest,
  });
  hosts.push(host);
  return host;
}

function recorder(answer: ConfirmAnswer) {
  const asked: ConfirmRequest[] = [];
  const onConfirm = (request: ConfirmRequest) => {
    asked.push(request);
    return answer;
  };
  return { asked, onConfirm };
}

describe('a third-party server over stdio (server-memory)', () => {
  it('namespaces its tools and keeps its hints explicit', async () => {
    const host = await memoryHost();
    const names = host.catalog().map((t) => t.name);
    expect(names).toContain('memory__read_graph');
    expect(names).toContain('memory__delete_entities');
    const read = host.tool('memory__read_graph')!;
    expect(read).toMatchObject({ server: 'memory', toolName: 'read_graph', trust: 'untrusted', declaredBy: 'server' });
    expect(read.hints).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(host.servers()[0]).toMatchObject({ status: 'connected', era: 'legacy', trust: 'untrusted' });
  });

  it('asks before an untrusted read-only tool runs, telling onConfirm who says so', async () => {
    const { asked, onConfirm } = recorder('allow-once');
    const host = await memoryHost({ onConfirm });
    const outcome = await host.call('memory__read_graph');
    expect(outcome.status).toBe('ok');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: 'memory__read_graph', server: 'memory', trust: 'untrusted', args: {} });
    expect(asked[0]!.hints.readOnlyHint).toBe(true);
    expect(asked[0]!.reason).toContain('not trusted');
    // Untrusted hints cannot vouch for the content either.
    expect(outcome.untrustedContent).toBe(true);
  });

  it('denies instead of hanging when a call needs a person and there is no onConfirm', async () => {
    const host = await memoryHost();
    const outcome = await host.call('memory__read_graph');
    expect(outcome.status).toBe('denied');
    expect(outcome.message).toContain('no onConfirm');
    expect(outcome.attempts).toBe(0);
  });

  it('lets a trusted server read without a prompt but still asks before a destructive call', async () => {
    const { asked, onConfirm } = recorder('deny');
    const host = await memoryHost({ trust: 'trusted', onConfirm });
    const read = await host.call('memory__read_graph');
    expect(read.status).toBe('ok');
    expect(read.untrustedContent).toBe(false);
    const remove = await host.call('memory__delete_entities', { entityNames: ['x'] });
    expect(remove.status).toBe('denied');
    expect(asked.map((a) => a.tool)).toEqual(['memory__delete_entities']);
    expect(asked[0]!.canRemember).toBe(false);
  });

  it('remembers allow-always for a trusted additive tool, so the second call does not ask', async () => {
    const { asked, onConfirm } = recorder('allow-always');
    const host = await memoryHost({ trust: 'trusted', onConfirm });
    const entity = (name: string) => ({ entities: [{ name, entityType: 'note', observations: ['x'] }] });
    expect((await host.call('memory__create_entities', entity('one'))).status).toBe('ok');
    expect((await host.call('memory__create_entities', entity('two'))).status).toBe('ok');
    expect(asked).toHaveLength(1);
  });

  it('asks for every write under confirm-writes, never remembering', async () => {
    const { asked, onConfirm } = recorder('allow-always');
    const host = await memoryHost({ trust: 'trusted', onConfirm, policy: 'confirm-writes' });
    const entity = (name: string) => ({ entities: [{ name, entityType: 'note', observations: [] }] });
    await host.call('memory__create_entities', entity('one'));
    await host.call('memory__create_entities', entity('two'));
    await host.call('memory__read_graph');
    expect(asked.map((a) => a.tool)).toEqual(['memory__create_entities', 'memory__create_entities']);
  });

  it('trusts the effects a user declares in an overrides file, even for an untrusted server', async () => {
    const overrides = join(dir, 'overrides.json');
    writeFileSync(
      overrides,
      JSON.stringify({
        servers: {
          memory: {
            tools: {
              read_graph: { effect: 'read', world: 'closed' },
              'delete_*': { effect: 'destructive', world: 'closed', idempotent: true, tags: ['danger'] },
            },
          },
        },
      }),
    );
    const { asked, onConfirm } = recorder('deny');
    const host = await memoryHost({
      overrides,
      onConfirm,
      policy: { rules: [{ decision: 'deny', tags: ['danger'] }] },
    });
    const read = host.tool('memory__read_graph')!;
    expect(read).toMatchObject({ trust: 'trusted', declaredBy: 'override' });
    expect(read.hintSources.readOnlyHint).toBe('override');
    expect((await host.call('memory__read_graph')).status).toBe('ok');
    expect(asked).toEqual([]);
    // The override's tag is the user's own, so a tag rule applies to it.
    expect((await host.call('memory__delete_entities', { entityNames: ['x'] })).status).toBe('denied');
    expect(host.tools().map((t) => t.name)).not.toContain('memory__delete_entities');
  });

  it('lists and runs only read-only tools in plan mode, where untrusted reads still ask', async () => {
    const { asked, onConfirm } = recorder('allow-once');
    const host = await memoryHost({ policy: 'plan', onConfirm });
    const listed = host.tools().map((t) => t.toolName);
    expect(listed.sort()).toEqual(['open_nodes', 'read_graph', 'search_nodes']);
    const write = await host.call('memory__create_entities', { entities: [] });
    expect(write.status).toBe('denied');
    expect(write.message).toContain('plan mode');
    const read = await host.call('memory__read_graph');
    expect(read.status).toBe('ok');
    // The write was refused without asking; the untrusted read asked.
    expect(asked.map((a) => a.tool)).toEqual(['memory__read_graph']);
  });

  it('denies in headless plan mode instead of waiting for a person', async () => {
    const host = await memoryHost({ policy: 'plan' });
    const outcomes = await host.run([
      { tool: 'memory__read_graph' },
      { tool: 'memory__delete_entities', args: { entityNames: [] } },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['denied', 'denied']);
  });

  it('runs everything without prompts in yolo, except what a deny rule forbids', async () => {
    const { asked, onConfirm } = recorder('allow-once');
    const host = await memoryHost({
      policy: {
        preset: 'yolo',
        rules: [{ decision: 'deny', tools: 'memory__delete_*', reason: 'never delete memories' }],
      },
      onConfirm,
    });
    const outcomes = await host.run([
      { tool: 'memory__create_entities', args: { entities: [{ name: 'a', entityType: 't', observations: [] }] } },
      { tool: 'memory__delete_entities', args: { entityNames: ['a'] } },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'denied']);
    expect(outcomes[1]!.message).toBe('never delete memories');
    expect(asked).toEqual([]);
  });

  it('does not let an allow rule on hints relax policy for an untrusted server', async () => {
    const { asked, onConfirm } = recorder('deny');
    const host = await memoryHost({
      policy: { rules: [{ decision: 'allow', hints: { readOnlyHint: true } }] },
      onConfirm,
    });
    expect((await host.call('memory__read_graph')).status).toBe('denied');
    expect(asked).toHaveLength(1);
  });
});
