/**
 * Quotas over stdio through the built CLI, with and without a real redis-server. With
 * `--redis` and a quota, the call sent right after connecting used to kill the gateway
 * (an ioredis TypeError outside any promise, two runs in three); without Redis a 30-day
 * window was reset within a millisecond (a timer past 2^31-1 ms) and every restart gave
 * a fresh count. Now: the gateway answers and stays up, a window of any length holds,
 * counts survive a restart when `quotaCounts` names a file (and reset without one, as
 * documented), and a bad counts file or window stops the start naming it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

const fixture = path.join(REPO, 'test/fixtures/gateway/upstream.mjs');
const DAYS_30 = 30 * 86_400_000;
let dir: string;
let redis: RedisServer;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-quota-counts-'));
  redis = await startRedis();
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let configs = 0;
function config(extra: Record<string, unknown>): string {
  const file = path.join(dir, `gateway-${++configs}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      servers: { notes: { command: process.execPath, args: [fixture] } },
      policy: 'yolo',
      quotas: [{ name: 'reads', tools: ['notes__read_*'], max: 2, windowMs: DAYS_30 }],
      ...extra,
    }),
  );
  return file;
}

interface Stdio {
  call(name: string): Promise<{ isError?: boolean; text: string }>;
  stderr: () => string;
  close(): Promise<void>;
}

/** `candor gateway --config <file> …` over stdio, with an SDK v1 or v2 client. */
async function gateway(kind: 'v1' | 'v2', args: string[]): Promise<Stdio> {
  let stderr = '';
  const params = { command: process.execPath, args: [CLI, 'gateway', ...args], stderr: 'pipe' as const, cwd: dir };
  const textOf = (r: unknown) =>
    ((r as { content: Array<{ text?: string }> }).content ?? []).map((b) => b.text).join('');
  if (kind === 'v1') {
    const transport = new StdioV1(params);
    transport.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const client = new ClientV1({ name: 'quota-v1', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    await client.listTools();
    return {
      call: async (name) => {
        const r = await client.callTool({ name, arguments: {} });
        return { isError: r.isError as boolean | undefined, text: textOf(r) };
      },
      stderr: () => stderr,
      close: () => client.close(),
    };
  }
  const transport = new StdioV2(params);
  transport.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const client = new ClientV2({ name: 'quota-v2', version: '1.0.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  await client.listTools();
  return {
    call: async (name) => {
      const r = await client.callTool({ name, arguments: {} });
      return { isError: r.isError as boolean | undefined, text: textOf(r) };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}

describe('quotas with a real redis-server', () => {
  test('a call right after connecting is answered and the stdio gateway stays up (five fresh gateways)', async () => {
    const file = config({ quotas: [{ name: 'reads', tools: ['notes__read_*'], max: 5, windowMs: DAYS_30 }] });
    for (let run = 0; run < 5; run++) {
      const gw = await gateway('v1', ['--config', file, '--redis', redis.url]);
      const first = await gw.call('notes__read_notes');
      expect(first.isError).toBeFalsy();
      // Still there: a second call is answered too.
      expect((await gw.call('notes__delete_notes')).text).toBe('deleted');
      expect(gw.stderr()).not.toContain('TypeError');
      expect(gw.stderr()).not.toContain('is not a function');
      await gw.close();
    }
    // The five gateways shared one count on Redis: five reads used the quota of five up.
    const gw = await gateway('v2', ['--config', file, '--redis', redis.url]);
    const refused = await gw.call('notes__read_notes');
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('reads');
    await gw.close();
  }, 120_000);
});

describe('quotas without Redis', () => {
  test('a 30-day window holds: two calls pass, the next two are refused', async () => {
    const gw = await gateway('v2', ['--config', config({})]);
    expect((await gw.call('notes__read_notes')).isError).toBeFalsy();
    expect((await gw.call('notes__read_notes')).isError).toBeFalsy();
    for (let i = 0; i < 2; i++) {
      const refused = await gw.call('notes__read_notes');
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('reads');
    }
    await gw.close();
  });

  test('with "quotaCounts", counts survive a restart; the file holds hashes and counts only', async () => {
    const counts = path.join(dir, 'quota-counts.json');
    const file = config({ quotaCounts: counts });
    const first = await gateway('v1', ['--config', file]);
    expect((await first.call('notes__read_notes')).isError).toBeFalsy();
    expect((await first.call('notes__read_notes')).isError).toBeFalsy();
    await first.close();
    const saved = JSON.parse(readFileSync(counts, 'utf8')) as {
      quotaCountsVersion: number;
      windows: Record<string, { endsAt: number; count: number }>;
    };
    expect(saved.quotaCountsVersion).toBe(1);
    const windows = Object.entries(saved.windows);
    expect(windows).toHaveLength(1);
    expect(windows[0]![0]).toMatch(/^candor-quota:[0-9a-f]{16}:local$/);
    expect(windows[0]![1].count).toBe(2);
    const again = await gateway('v2', ['--config', file]);
    const refused = await again.call('notes__read_notes');
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('reads');
    await again.close();
  });

  test('without "quotaCounts", a restart starts every count afresh (as documented)', async () => {
    const file = config({});
    const first = await gateway('v1', ['--config', file]);
    await first.call('notes__read_notes');
    await first.call('notes__read_notes');
    expect((await first.call('notes__read_notes')).isError).toBe(true);
    await first.close();
    const again = await gateway('v1', ['--config', file]);
    expect((await again.call('notes__read_notes')).isError).toBeFalsy();
    await again.close();
    expect(existsSync(path.join(dir, 'quota-counts.json.tmp'))).toBe(false);
  });

  test('a counts file that is not one stops the start, naming it; so does a window past 100 years', async () => {
    const counts = path.join(dir, 'broken-counts.json');
    writeFileSync(counts, '{"windows": []}');
    const broken = await runCli(['gateway', '--config', config({ quotaCounts: counts }), '--http', '127.0.0.1:0']);
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toContain(`The quota counts file ${counts} is not a version 1 quota counts file`);
    const file = path.join(dir, 'long-window.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: { notes: { command: process.execPath, args: [fixture] } },
        quotas: [{ max: 2, windowMs: 2 ** 53 }],
      }),
    );
    const long = await runCli(['gateway', '--config', file, '--http', '127.0.0.1:0']);
    expect(long.code).not.toBe(0);
    expect(long.stderr).toContain('quotas[0].windowMs');
    expect(long.stderr).toContain('from 1000 (a second) to 3153600000000 (100 years)');
  });
});
