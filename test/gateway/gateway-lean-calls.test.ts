/**
 * The gateway's lean tools/call path to stdio upstreams, over the wire:
 * a downstream SDK client → candor gateway over Streamable HTTP → a candor stdio
 * upstream in either protocol era. Each case runs on the lean path and, with
 * `leanCalls: false` (`CANDOR_LEAN_CALLS=0` for the CLI), on the SDK client's path, and both must behave the same:
 * concurrent calls matched by id, progress and cancellation passed on, the per-call
 * timeout, an upstream that dies mid-call, large results.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { until } from '../support/until.js';

const fixture = join(import.meta.dirname, '../fixtures/gateway/lean-upstream.mjs');
const dir = mkdtempSync(join(tmpdir(), 'candor-gateway-lean-'));
const open: Array<() => Promise<unknown>> = [];
const silent = { error() {}, warn() {}, info() {}, debug() {} };
/** The lean path's first request id (lean-calls.ts); the SDK client counts from 0. */
const LEAN_IDS = 2 ** 40;

afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

type Path = 'lean' | 'sdk';
type Era = 'legacy' | 'modern';

async function start(path: Path, era: Era, extra: Partial<GatewayOptions> = {}, env: Record<string, string> = {}) {
  {
    const gateway = await createGateway({
      logger: silent,
      ...(path === 'sdk' ? { leanCalls: false } : {}),
      servers: { up: { command: process.execPath, args: [fixture], era, env, stderr: 'ignore' } },
      policy: 'yolo',
      ...extra,
    });
    const listener = await gateway.listen({ port: 0, handleSignals: false });
    open.push(
      () => gateway.close(),
      () => listener.close(),
    );
    const client = new Client({ name: 'downstream', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    open.push(() => client.close());
    return client;
  }
}

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((b) => b.text ?? '').join('\n');

function events(log: string): Array<{ event: string; tag: string; requestId: number }> {
  try {
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

describe.each([
  ['lean', 'legacy'],
  ['lean', 'modern'],
  ['sdk', 'legacy'],
  ['sdk', 'modern'],
] as Array<[Path, Era]>)('tools/call to a stdio upstream, %s path, %s era', (path, era) => {
  test('64 concurrent calls with different delays each get their own answer, sent with the path’s ids', async () => {
    const client = await start(path, era);
    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        client.callTool({ name: 'up__echo', arguments: { text: `call ${i}`, ms: (i * 7) % 40 } }),
      ),
    );
    results.forEach((result, i) => {
      expect(result.isError).toBeFalsy();
      expect(text(result)).toBe(`call ${i}`);
      const { requestId } = result.structuredContent as { requestId: number };
      if (path === 'lean') expect(requestId).toBeGreaterThanOrEqual(LEAN_IDS);
      else expect(requestId).toBeLessThan(LEAN_IDS);
    });
  });

  test('progress comes back to the downstream client, and its cancel reaches the upstream handler', async () => {
    const log = join(dir, `cancel-${path}-${era}.log`);
    writeFileSync(log, '');
    const client = await start(path, era, {}, { LEAN_FIXTURE_LOG: log });
    const progress: number[] = [];
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'up__slow', arguments: { tag: 'c' } },
      { signal: controller.signal, onprogress: (p) => progress.push(p.progress) },
    );
    await until(
      () => progress.length,
      (n) => n >= 3,
    );
    controller.abort();
    await expect(call).rejects.toThrow();
    const seen = await until(
      () => events(log),
      (e) => e.some((x) => x.event === 'cancelled'),
    );
    expect(seen.map((e) => e.event)).toEqual(['started', 'cancelled']);
    expect(progress.slice(0, 3)).toEqual([1, 2, 3]);
    // The connection still serves.
    expect(text(await client.callTool({ name: 'up__echo', arguments: { text: 'after' } }))).toBe('after');
  });

  test('the per-call timeout gives a clear error and cancels the call upstream', async () => {
    const log = join(dir, `timeout-${path}-${era}.log`);
    writeFileSync(log, '');
    const client = await start(path, era, { timeoutMs: 400 }, { LEAN_FIXTURE_LOG: log });
    // Progress resets the timeout (as the SDK's resetTimeoutOnProgress), so this call is quiet.
    const result = await client.callTool({ name: 'up__slow', arguments: { tag: 't', quiet: true } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('no answer within 400 ms; the call was cancelled');
    const seen = await until(
      () => events(log),
      (e) => e.some((x) => x.event === 'cancelled'),
    );
    expect(seen.map((e) => e.event)).toEqual(['started', 'cancelled']);
    expect(text(await client.callTool({ name: 'up__echo', arguments: { text: 'next' } }))).toBe('next');
  });

  test('an upstream that dies mid-call gives a clear error, calls in flight fail with it, and the next call is served', async () => {
    const log = join(dir, `die-${path}-${era}.log`);
    writeFileSync(log, '');
    const client = await start(path, era, {}, { LEAN_FIXTURE_LOG: log });
    const waiting = Array.from({ length: 4 }, (_, i) =>
      client.callTool({ name: 'up__slow', arguments: { tag: `w${i}`, quiet: true } }),
    );
    // All four are running upstream before it dies.
    const started = await until(
      () => events(log),
      (e) => e.filter((x) => x.event === 'started').length === 4,
    );
    expect(started.filter((x) => x.event === 'started')).toHaveLength(4);
    const died = await client.callTool({ name: 'up__die', arguments: {} });
    expect(died.isError).toBe(true);
    expect(text(died)).toMatch(/transport failure \(.*Connection closed.*\)/);
    for (const result of await Promise.all(waiting)) {
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/transport failure/);
    }
    const next = await until(
      () => client.callTool({ name: 'up__echo', arguments: { text: 'alive' } }),
      () => true,
    );
    expect(text(await next)).toBe('alive');
  });

  test('a 4 MB result passes through whole', async () => {
    const client = await start(path, era);
    const big = await client.callTool({ name: 'up__big', arguments: { bytes: 4_000_000 } });
    expect(text(big)).toBe('y'.repeat(4_000_000));
    expect(text(await client.callTool({ name: 'up__echo', arguments: { text: 'small' } }))).toBe('small');
  });
});
