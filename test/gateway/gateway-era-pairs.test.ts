/**
 * The gateway between protocol eras, in all four pairs: an SDK v2 client speaking
 * 2025-11-25 or 2026-07-28 in front of a stdio upstream that speaks only 2025-11-25
 * (the SDK v1 server) or only 2026-07-28 (a candor server). Through each pair: a call,
 * an elicitation, progress, a cancellation that reaches the upstream handler, and a
 * change of the upstream's tool list that reaches the client (a session's
 * notification in 2025-11-25, the listen stream in 2026-07-28).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { ensureBuilt } from '../support/cli-harness.js';
import { until, waitFor } from '../support/until.js';

const fixture = join(import.meta.dirname, '../fixtures/gateway/era-upstream.mjs');
const dir = mkdtempSync(join(tmpdir(), 'candor-gateway-eras-'));
const open: Array<() => Promise<unknown>> = [];
const warnings: string[] = [];
const silent = { error: (m: string) => warnings.push(m), warn: (m: string) => warnings.push(m), info() {}, debug() {} };

beforeAll(() => ensureBuilt());
afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

const text = (result: unknown) =>
  ((result as { content?: Array<{ type: string; text?: string }> }).content ?? []).map((c) => c.text ?? '').join('');

type Down = '2025-11-25' | '2026-07-28';
type Up = 'legacy-only' | 'modern-only';

describe.each([
  ['2025-11-25', 'legacy-only'],
  ['2025-11-25', 'modern-only'],
  ['2026-07-28', 'legacy-only'],
  ['2026-07-28', 'modern-only'],
] as Array<[Down, Up]>)('a %s client in front of a %s upstream', (down, up) => {
  let client: Client;
  let url: string;
  let log: string;
  let changes = 0;
  const shown: Array<{ url?: string; elicitationId?: string; message?: string }> = [];
  const completed: string[] = [];

  const connect = async (elicitation: { form?: Record<string, never>; url?: Record<string, never> }) => {
    const downstream = new Client(
      { name: 'downstream', version: '1.0.0' },
      {
        capabilities: { elicitation },
        versionNegotiation: { mode: down === '2026-07-28' ? { pin: down } : 'legacy' },
      },
    );
    downstream.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { mode?: string; url?: string; elicitationId?: string; message?: string };
      if (params.mode === 'url') {
        shown.push({ url: params.url, elicitationId: params.elicitationId, message: params.message });
        return { action: 'accept' };
      }
      return { action: 'accept', content: { name: 'Ada' } };
    });
    downstream.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      completed.push(String((notification.params as { elicitationId?: unknown }).elicitationId));
    });
    await downstream.connect(new StreamableHTTPClientTransport(new URL(url)));
    open.push(() => downstream.close());
    return downstream;
  };

  beforeAll(async () => {
    log = join(dir, `${down}-${up}.log`);
    const gateway = await createGateway({
      logger: silent,
      servers: {
        up: { command: process.execPath, args: [fixture, up], env: { ERA_FIXTURE_LOG: log }, stderr: 'ignore' },
      },
      policy: 'yolo',
    });
    const listener = await gateway.listen({ port: 0, handleSignals: false });
    open.push(
      () => gateway.close(),
      () => listener.close(),
    );
    url = listener.url;
    client = await connect({ form: {}, url: {} });
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes++;
    });
  }, 60_000);

  test('the client speaks its era and calls a tool', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(down);
    expect(text(await client.callTool({ name: 'up__echo', arguments: { text: 'hi' } }))).toBe('echo: hi');
  });

  test("the upstream's question reaches the client and its answer comes back", async () => {
    expect(text(await client.callTool({ name: 'up__ask', arguments: {} }))).toBe('hello Ada');
  });

  test("the upstream's URL reaches a client that opens URLs, named by server, and its completion follows", async () => {
    shown.length = 0;
    expect(text(await client.callTool({ name: 'up__visit', arguments: {} }))).toBe('visit accept');
    // elicitationId and notifications/elicitation/complete exist in 2025-11-25 only; 2026-07-28
    // dropped both (the client's retry of the call is how the server learns the flow is over).
    // A 2025-11-25 client gets an id unique across the gateway's servers: the upstream's own, or (from a
    // 2026-07-28 upstream, which sends none) one the gateway makes.
    expect(shown).toEqual([
      {
        url: 'https://example.com/sign-in?state=s1',
        elicitationId:
          down === '2026-07-28'
            ? undefined
            : up === 'legacy-only'
              ? 'up:sign-in-1'
              : expect.stringMatching(/^up:[0-9a-f-]{36}$/),
        message: 'up: Sign in to continue.',
      },
    ]);
    if (down === '2025-11-25' && up === 'legacy-only')
      await waitFor(() => completed.includes('up:sign-in-1'), 'elicitation/complete');
    else expect(completed).toEqual([]);
  });

  test('a client that cannot open URLs answers decline through the gateway and is shown nothing', async () => {
    shown.length = 0;
    const formOnly = await connect({ form: {} });
    expect(text(await formOnly.callTool({ name: 'up__visit', arguments: {} }))).toBe('visit decline');
    expect(shown).toEqual([]);
  });

  test("a tool the upstream runs only as a task is called as one and answers the client's plain call", async () => {
    expect(text(await client.callTool({ name: 'up__slow', arguments: { n: 7 } }))).toBe('slow 49');
    expect(readFileSync(log, 'utf8')).toContain('slow:task');
  });

  if (up === 'modern-only') {
    test("a task upstream that stops to ask (input_required in tasks/get) gets the client's answer", async () => {
      expect(text(await client.callTool({ name: 'up__ask_task', arguments: {} }))).toBe('hello Ada');
    });
  }

  test('progress passes through in order', async () => {
    const seen: number[] = [];
    const result = await client.callTool(
      { name: 'up__count', arguments: {} },
      { onprogress: (p: { progress: number }) => seen.push(p.progress) },
    );
    expect(text(result)).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
  });

  test("the client's cancellation reaches the upstream handler", async () => {
    const controller = new AbortController();
    const waiting = client.callTool({ name: 'up__wait', arguments: {} }, { signal: controller.signal });
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('wait:started'), 'the call upstream');
    controller.abort();
    await expect(waiting).rejects.toThrow();
    const seen = await until(
      () => readFileSync(log, 'utf8'),
      (t) => t.includes('wait:cancelled'),
    );
    expect(seen).toContain('wait:cancelled');
  });

  test("a change of the upstream's tools reaches the client and the new tool is callable", async () => {
    const subscription = down === '2026-07-28' ? await client.listen({ toolsListChanged: true }) : undefined;
    const before = changes;
    expect(text(await client.callTool({ name: 'up__grow', arguments: {} }))).toBe('grown');
    await waitFor(() => changes > before, 'list_changed');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('up__extra');
    expect(text(await client.callTool({ name: 'up__extra', arguments: {} }))).toBe('extra');
    await subscription?.close();
  });
});
