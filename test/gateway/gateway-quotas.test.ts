/**
 * Gateway quotas through the built CLI: two `candor gateway` instances on one
 * redis-server behind haproxy (round robin, no stickiness), each person with a
 * token from a real authorization server. Checked on the wire: a per-person quota
 * on an effect class and a shared quota on a tool glob hold across both instances,
 * other people and other effect classes are not counted, the refusal is a tool
 * error with the wait in words and in `_meta` for SDK v1 and v2 clients in both
 * eras, and a mistake in `"quotas"` is named by its JSON path.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { waitText } from '../../src/gateway/quotas/wait-answer.js';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { startGatewayProcess } from '../support/gateway-process.js';
import { type Balancer, startHaproxy } from '../support/haproxy.js';
import { freePort, type RedisServer, startRedis } from '../support/redis-server.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../support/test-authorization-server.js';

const fixture = path.join(REPO, 'test/fixtures/gateway/upstream.mjs');
let dir: string;
let redis: RedisServer;
let as: TestAuthorizationServer;
let balancer: Balancer;
const children: ChildProcess[] = [];
const clients: Array<{ close(): Promise<void> }> = [];

const HOUR = 3_600_000;
const quotas = [
  { name: 'deletes per hour', effects: ['destructive'], per: 'person', max: 2, windowMs: HOUR },
  { tools: ['notes__read_*'], per: 'all', max: 3, windowMs: HOUR },
];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-quotas-'));
  redis = await startRedis();
  const publicPort = await freePort();
  const resource = `http://127.0.0.1:${publicPort}/mcp`;
  as = await startAuthorizationServer({ resource });
  const config = path.join(dir, 'candor.gateway.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: { notes: { command: process.execPath, args: [fixture] } },
      policy: 'yolo',
      quotas,
      audit: path.join(dir, 'audit.jsonl'),
    }),
  );
  const auth = ['--auth-issuer', as.issuer, '--auth-resource', resource, '--auth-audience', 'candor-gateway'];
  const instances = await Promise.all(
    ['g0', 'g1'].map(async (name) => ({
      name,
      origin: new URL(await startGateway(['--config', config, '--redis', redis.url, ...auth])).origin,
    })),
  );
  balancer = await startHaproxy(instances, { port: publicPort });
  await balancer.waitForBackends(['g0', 'g1']);
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  for (const child of children) child.kill('SIGTERM');
  await balancer?.close();
  await as?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `candor gateway … --http 127.0.0.1:0`; resolves with its endpoint. */
const startGateway = async (args: string[]) =>
  (await startGatewayProcess(args, { cwd: dir, onSpawn: (child) => children.push(child) })).url;

/** An SDK v2 client of `sub` through haproxy (2026-07-28 when `modern`, else a 2025 session). */
async function personV2(sub: string, modern = false): Promise<Client> {
  const token = await as.mint({ sub, aud: 'candor-gateway', scope: 'tools:read tools:write tools:destructive' });
  const client = new Client(
    { name: `client-of-${sub}`, version: '1' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(balancer.url), {
      fetch: balancer.fetch,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

async function personV1(sub: string): Promise<ClientV1> {
  const token = await as.mint({ sub, aud: 'candor-gateway', scope: 'tools:read tools:write tools:destructive' });
  const client = new ClientV1({ name: `v1-of-${sub}`, version: '1' });
  await client.connect(
    new TransportV1(new URL(balancer.url), {
      fetch: balancer.fetch,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

interface Answer {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  _meta?: Record<string, unknown>;
}
const textOf = (result: unknown) => (result as Answer).content[0]?.text ?? '';
const quotaOf = (result: unknown) =>
  (result as Answer)._meta?.['dev.candor/quota'] as { quota: string; retryAfterMs: number; max: number } | undefined;
/** The instances that answered tools/call through haproxy so far. */
const servedBy = () => balancer.routed.filter((r) => r.rpc === 'tools/call').map((r) => r.backend);

/**
 * Send the next tools/calls to these instances, in order: a count kept per process
 * would let through calls that one count shared on Redis refuses.
 */
function route(...instances: string[]): void {
  balancer.policy = ({ rpc }) => (rpc === 'tools/call' ? instances.shift() : undefined);
}

describe('quotas across two gateways on one Redis behind haproxy', () => {
  test('a per-person quota on destructive calls holds across instances, counts only that person and that effect class, and says how long to wait', async () => {
    const alice = await personV2('alice');
    route('g0', 'g1', 'g1');
    const calls = [];
    for (let i = 0; i < 3; i++) calls.push(await alice.callTool({ name: 'notes__delete_notes', arguments: {} }));
    expect(calls.map((r) => r.isError === true)).toEqual([false, false, true]);
    expect(servedBy()).toEqual(['g0', 'g1', 'g1']);
    const refused = calls[2]!;
    const meta = quotaOf(refused)!;
    expect(meta).toMatchObject({ quota: 'deletes per hour', max: 2, windowMs: HOUR, per: 'person' });
    expect(meta.retryAfterMs).toBeGreaterThan(0);
    expect(meta.retryAfterMs).toBeLessThanOrEqual(HOUR);
    expect(textOf(refused)).toBe(
      `Quota reached for "deletes per hour": at most 2 per hour for each person. Try again in ${waitText(meta.retryAfterMs)}.`,
    );
    // Not the destructive class: an additive call of the same person goes through.
    const additive = await alice.callTool({ name: 'notes__flood', arguments: { times: 0 } });
    expect(additive.isError, textOf(additive)).not.toBe(true);
    // Another person has their own count, through an SDK v1 client.
    const bob = await personV1('bob');
    route('g1', 'g0', 'g0');
    const bobs = [];
    for (let i = 0; i < 3; i++) bobs.push(await bob.callTool({ name: 'notes__delete_notes', arguments: {} }));
    expect(bobs.map((r) => r.isError === true)).toEqual([false, false, true]);
    expect(textOf(bobs[2])).toContain('Quota reached for "deletes per hour"');
    expect(quotaOf(bobs[2])?.retryAfterMs).toBeGreaterThan(0);
    // Each refusal is in the audit log (written by whichever instance refused), with the person.
    const audit = readFileSync(path.join(dir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { principal?: string; decidedBy: string; decision: string; tool: string });
    const refusals = audit.filter((e) => e.decidedBy.startsWith('quota:'));
    expect(refusals.map((e) => [e.principal, e.decision, e.decidedBy, e.tool])).toEqual([
      ['alice', 'deny', 'quota:"deletes per hour"', 'notes__delete_notes'],
      ['bob', 'deny', 'quota:"deletes per hour"', 'notes__delete_notes'],
    ]);
  }, 120_000);

  test('a quota on a tool glob shared by everyone holds across people, instances and eras; 2026-07-28 gets a complete tool error', async () => {
    const carol = await personV2('carol');
    const dave = await personV2('dave', true);
    expect(dave.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const before = servedBy().length;
    route('g0', 'g1', 'g0', 'g1');
    const answers = [
      await carol.callTool({ name: 'notes__read_notes', arguments: {} }),
      await dave.callTool({ name: 'notes__read_notes', arguments: {} }),
      await carol.callTool({ name: 'notes__read_notes', arguments: {} }),
      await dave.callTool({ name: 'notes__read_notes', arguments: {} }),
    ];
    expect(answers.map((r) => r.isError === true)).toEqual([false, false, false, true]);
    const backends = new Set(
      balancer.routed
        .slice(before)
        .filter((r) => r.rpc === 'tools/call')
        .map((r) => r.backend),
    );
    expect(backends).toEqual(new Set(['g0', 'g1']));
    const refused = answers[3]!;
    expect(textOf(refused)).toMatch(
      /^Quota reached for calls to notes__read_\*: at most 3 per hour for everyone together\. Try again in /,
    );
    expect(quotaOf(refused)).toMatchObject({ quota: 'calls to notes__read_*', per: 'all' });
    // On the 2026-07-28 wire: a complete result with isError, as SEP-1303's tool errors are.
    const token = await as.mint({ sub: 'dave', aud: 'candor-gateway', scope: 'tools:read' });
    const raw = await fetch(balancer.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'notes__read_notes',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'notes__read_notes',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(raw.status).toBe(200);
    const body = (await raw.json()) as { result: Answer & { resultType: string } };
    expect(body.result.resultType).toBe('complete');
    expect(body.result.isError).toBe(true);
    expect(quotaOf(body.result)?.retryAfterMs).toBeGreaterThan(0);
  }, 120_000);
});

describe('quotas while Redis is down', () => {
  test('each instance counts on its own and still refuses past the quota, with the wait', async () => {
    const own = await startRedis();
    try {
      const config = path.join(dir, 'outage.gateway.json');
      writeFileSync(
        config,
        JSON.stringify({
          servers: { notes: { command: process.execPath, args: [fixture] } },
          policy: 'yolo',
          quotas: [{ tools: ['notes__read_notes'], per: 'all', max: 1, windowMs: HOUR }],
        }),
      );
      const url = await startGateway(['--config', config, '--redis', own.url]);
      // 2026-07-28: no session to look up in the store that is about to go.
      const client = new Client(
        { name: 'outage', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      await own.kill();
      const first = await client.callTool({ name: 'notes__read_notes', arguments: {} });
      const second = await client.callTool({ name: 'notes__read_notes', arguments: {} });
      expect([first.isError === true, second.isError === true]).toEqual([false, true]);
      expect(textOf(second)).toMatch(/^Quota reached for calls to notes__read_notes: at most 1 per hour/);
      expect(quotaOf(second)?.retryAfterMs).toBeGreaterThan(0);
    } finally {
      await own.stop();
    }
  }, 120_000);
});

describe('the "quotas" config', () => {
  test('a mistake is named by its JSON path and the gateway does not start', async () => {
    const config = path.join(dir, 'bad.gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: { notes: { command: process.execPath, args: [fixture] } },
        quotas: [{ effects: ['delete'], max: 2, windowMs: HOUR }],
      }),
    );
    const run = await runCli(['gateway', '--config', config, '--stdio']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `${config}: quotas[0].effects[0]: unknown effect class "delete"; use read, additive, destructive.`,
    );
  }, 60_000);
});
