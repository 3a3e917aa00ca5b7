/**
 * candor/host in front of candor's own workspace server (in memory): honest
 * hints and candor's tags on the wire, reads batched in parallel, writes
 * alone, tag rules that count only when the server is trusted.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createWorkspaceServer } from '../../examples/workspace/index.js';
import { type ConfirmRequest, createHost, type Host, type HostOptions } from '../../src/host/index.js';
import type { CandorServer } from '../../src/server/create-server.js';

const root = mkdtempSync(join(tmpdir(), 'candor-host-workspace-'));
writeFileSync(join(root, 'a.txt'), 'alpha\n');
writeFileSync(join(root, 'b.txt'), 'beta\n');
let server: CandorServer | undefined;
let host: Host | undefined;

afterEach(async () => {
  await host?.close();
  await server?.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function workspaceHost(options: Partial<HostOptions> & { trust?: 'trusted' | 'untrusted' } = {}): Promise<Host> {
  const { trust, ...rest } = options;
  server = createWorkspaceServer({ root });
  const transport = server.connectMemory() as unknown as NonNullable<HostOptions['servers'][string]['transport']>;
  host = await createHost({ servers: { ws: { transport, ...(trust ? { trust } : {}) } }, ...rest });
  return host;
}

describe('the workspace server behind candor/host', () => {
  it('lists its tools with explicit hints and candor tags', async () => {
    const h = await workspaceHost({ trust: 'trusted' });
    const read = h.tool('ws__read_file')!;
    expect(read.hints.readOnlyHint).toBe(true);
    expect(read.tags).toContain('read');
    expect(h.tool('ws__delete_path')!.hints.destructiveHint).toBe(true);
    expect(Object.values(read.hintSources)).toEqual(['server', 'server', 'server', 'server']);
  });

  it('runs reads side by side and a write alone, in request order', async () => {
    const h = await workspaceHost({
      trust: 'trusted',
      policy: { rules: [{ decision: 'allow', tools: 'ws__create_file' }] },
    });
    const outcomes = await h.run([
      { tool: 'ws__read_file', args: { path: 'a.txt' } },
      { tool: 'ws__read_file', args: { path: 'b.txt' } },
      { tool: 'ws__create_file', args: { path: 'c.txt', content: 'gamma\n' } },
      { tool: 'ws__read_file', args: { path: 'c.txt' } },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(outcomes.map((o) => o.parallel)).toEqual([true, true, false, true]);
    const text = (i: number) => JSON.stringify(outcomes[i]!.result!.content);
    expect(text(0)).toContain('alpha');
    expect(text(1)).toContain('beta');
    // The read after the write saw it: the write was a barrier.
    expect(text(3)).toContain('gamma');
  });

  it('lets a tag rule allow writes of a trusted server, but never a destructive one', async () => {
    const asked: ConfirmRequest[] = [];
    const h = await workspaceHost({
      trust: 'trusted',
      policy: { rules: [{ decision: 'allow', tags: ['write'] }] },
      onConfirm: (request) => {
        asked.push(request);
        return 'deny';
      },
    });
    expect((await h.call('ws__create_file', { path: 'd.txt', content: 'delta\n' })).status).toBe('ok');
    expect((await h.call('ws__delete_path', { path: 'd.txt' })).status).toBe('denied');
    expect(asked.map((a) => a.tool)).toEqual(['ws__delete_path']);
    expect(existsSync(join(root, 'd.txt'))).toBe(true);
  });

  it('ignores a tag allow rule for an untrusted server: its tags are its own word', async () => {
    const h = await workspaceHost({ policy: { rules: [{ decision: 'allow', tags: ['write'] }] } });
    const outcome = await h.call('ws__create_file', { path: 'e.txt', content: 'x' });
    expect(outcome.status).toBe('denied');
    expect(existsSync(join(root, 'e.txt'))).toBe(false);
  });
});
