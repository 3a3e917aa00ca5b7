/**
 * Taint through the gateway, on the wire: an open-world read brings untrusted content
 * into a conversation, and a following destructive or sending call is put to the person
 * naming that read, with SDK v1 and v2 clients in both eras (2025 sessions over HTTP;
 * 2026-07-28 through input_required). A denial stops the call; plan mode and a client
 * that cannot ask refuse it with a message that says why; a profile can deny or turn
 * taint off; an untainted conversation, and another session beside a tainted one, run
 * as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { ensureBuilt } from '../support/cli-harness.js';
import { ranCalls as ran } from '../support/code-mode-wire.js';

const fixture = join(import.meta.dirname, '../fixtures/gateway/taint-upstream.mjs');
const dir = mkdtempSync(join(tmpdir(), 'candor-taint-'));
const open: Array<{ close(): Promise<unknown> }> = [];
const silent = { error() {}, warn() {}, info() {}, debug() {} };

beforeAll(() => ensureBuilt(), 120_000);
afterAll(async () => {
  for (const item of open.reverse()) await item.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

let logs = 0;

/** A gateway in front of one trusted upstream (`web`); yolo with taint on unless told otherwise. */
async function startGateway(options: Partial<GatewayOptions> = {}): Promise<{ url: string; log: string }> {
  const log = join(dir, `upstream-${++logs}.log`);
  const gateway = await createGateway({
    servers: {
      web: {
        command: process.execPath,
        args: [fixture],
        env: { GATEWAY_FIXTURE_LOG: log },
        stderr: 'ignore',
        trust: 'trusted',
      },
    },
    policy: 'yolo',
    taint: 'ask',
    logger: silent,
    ...options,
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  open.push({ close: () => gateway.close() }, { close: () => listener.close() });
  return { url: listener.url, log };
}

type Decision = 'allow-once' | 'deny' | 'none';
interface Downstream {
  call(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; text: string }>;
  asked: string[];
}

const textOf = (result: unknown) =>
  ((result as { content?: Array<{ text?: string }> }).content ?? []).map((b) => b.text ?? '').join('\n');

/** A downstream client of `kind` answering every question with `decision` ('none': cannot be asked). */
async function connect(kind: 'v1' | 'v2' | 'v2-2026', url: string, decision: Decision): Promise<Downstream> {
  const asked: string[] = [];
  const answer = (message: string) => {
    asked.push(message);
    return { action: 'accept' as const, content: { decision } };
  };
  if (kind === 'v1') {
    const client = new ClientV1(
      { name: 'taint-v1', version: '1.0.0' },
      { capabilities: decision === 'none' ? {} : { elicitation: {} } },
    );
    if (decision !== 'none')
      client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message));
    await client.connect(new TransportV1(new URL(url)));
    open.push({ close: () => client.close() });
    return {
      asked,
      call: async (name, args) => {
        const result = await client.callTool({ name, arguments: args });
        return { isError: result.isError as boolean | undefined, text: textOf(result) };
      },
    };
  }
  const client = new ClientV2(
    { name: 'taint-v2', version: '1.0.0' },
    {
      capabilities: decision === 'none' ? {} : { elicitation: { form: {} } },
      ...(kind === 'v2-2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  if (decision !== 'none')
    client.setRequestHandler('elicitation/create', async (request) =>
      answer((request.params as { message: string }).message),
    );
  await client.connect(new TransportV2(new URL(url)));
  open.push({ close: () => client.close() });
  if (kind === 'v2-2026') expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return {
    asked,
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      return { isError: result.isError as boolean | undefined, text: textOf(result) };
    },
  };
}

describe.each(['v1', 'v2', 'v2-2026'] as const)('taint with an SDK %s client', (kind) => {
  test('an untainted conversation runs destructive and sending calls as the policy says (no question)', async () => {
    const { url, log } = await startGateway();
    const client = await connect(kind, url, 'deny');
    expect((await client.call('web__lookup', { word: 'tea' })).isError).toBeFalsy();
    expect((await client.call('web__delete_file', { path: 'a.txt' })).text).toBe('deleted a.txt');
    expect((await client.call('web__send_message', { to: 'me' })).text).toBe('sent to me');
    expect(client.asked).toEqual([]);
    expect(ran(log)).toEqual(['lookup', 'delete_file', 'send_message']);
  });

  test('after an open-world read, a destructive call asks, naming the read; allow runs it', async () => {
    const { url, log } = await startGateway();
    const client = await connect(kind, url, 'allow-once');
    expect((await client.call('web__fetch_page', { url: 'https://example.com' })).text).toContain('weather');
    expect((await client.call('web__delete_file', { path: 'a.txt' })).text).toBe('deleted a.txt');
    expect(client.asked).toHaveLength(1);
    expect(client.asked[0]).toContain('web__delete_file');
    expect(client.asked[0]).toContain('untrusted content (the result of web__fetch_page (server web: open-world))');
    expect(ran(log)).toEqual(['fetch_page', 'delete_file']);
  });

  test('after an open-world read, a sending call asks too, and a denial stops it', async () => {
    const { url, log } = await startGateway();
    const client = await connect(kind, url, 'deny');
    await client.call('web__fetch_page', { url: 'https://example.com' });
    const sent = await client.call('web__send_message', { to: 'x@example.com', text: 'files' });
    expect(sent.isError).toBe(true);
    expect(sent.text).toContain('denied');
    expect(client.asked).toHaveLength(1);
    expect(client.asked[0]).toContain('can send data out');
    expect(client.asked[0]).toContain('web__fetch_page');
    // A read-only call is not held up by taint.
    expect((await client.call('web__lookup', { word: 'tea' })).isError).toBeFalsy();
    expect(client.asked).toHaveLength(1);
    expect(ran(log)).toEqual(['fetch_page', 'lookup']);
  });

  test('a client that cannot ask is refused, with the reason and what to do', async () => {
    const { url, log } = await startGateway();
    const client = await connect(kind, url, 'none');
    await client.call('web__fetch_page', { url: 'https://example.com' });
    const refused = await client.call('web__delete_file', { path: 'a.txt' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('web__delete_file was refused');
    expect(refused.text).toContain('the result of web__fetch_page');
    expect(refused.text).toContain('cannot show questions');
    expect(refused.text).toContain('"taint": "off"');
    expect(ran(log)).toEqual(['fetch_page']);
  });
});

describe('taint settings and scope', () => {
  test('plan mode refuses a tainted write, naming both reasons', async () => {
    const { url, log } = await startGateway({
      policy: 'plan',
      taint: undefined,
      commandTools: { web__run_shell: { argument: 'command' } },
    });
    const client = await connect('v2', url, 'allow-once');
    await client.call('web__fetch_page', { url: 'https://example.com' });
    const refused = await client.call('web__run_shell', { command: 'rm -rf ./data' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('plan mode runs only read-only tools');
    expect(refused.text).toContain('the result of web__fetch_page');
    // A read-only command is still fine in plan mode.
    expect((await client.call('web__run_shell', { command: 'ls' })).text).toBe('ran ls');
    expect(client.asked).toEqual([]);
    expect(ran(log)).toEqual(['fetch_page', 'run_shell']);
  });

  test('a profile set to "deny" refuses without asking; one set to "off" runs', async () => {
    const { url, log } = await startGateway({
      profiles: { strict: { taint: 'deny' }, relaxed: { taint: 'off' } },
    });
    const base = url.replace(/\/mcp$/, '');
    const strict = await connect('v2', `${base}/mcp/strict`, 'allow-once');
    await strict.call('web__fetch_page', { url: 'https://example.com' });
    const refused = await strict.call('web__delete_file', { path: 'a.txt' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('Taint is set to "deny"');
    expect(strict.asked).toEqual([]);

    const relaxed = await connect('v2', `${base}/mcp/relaxed`, 'deny');
    await relaxed.call('web__fetch_page', { url: 'https://example.com' });
    expect((await relaxed.call('web__delete_file', { path: 'b.txt' })).text).toBe('deleted b.txt');
    expect(relaxed.asked).toEqual([]);
    expect(ran(log)).toEqual(['fetch_page', 'fetch_page', 'delete_file']);
  });

  test('one 2025 session tainted leaves another session untainted', async () => {
    const { url, log } = await startGateway();
    const tainted = await connect('v2', url, 'deny');
    const clean = await connect('v1', url, 'deny');
    await tainted.call('web__fetch_page', { url: 'https://example.com' });
    expect((await tainted.call('web__delete_file', { path: 'a.txt' })).isError).toBe(true);
    expect((await clean.call('web__delete_file', { path: 'b.txt' })).text).toBe('deleted b.txt');
    expect(clean.asked).toEqual([]);
    expect(ran(log)).toEqual(['fetch_page', 'delete_file']);
  });

  test('under yolo taint is off unless asked for', async () => {
    const { url, log } = await startGateway({ taint: undefined });
    const client = await connect('v2', url, 'deny');
    await client.call('web__fetch_page', { url: 'https://example.com' });
    expect((await client.call('web__delete_file', { path: 'a.txt' })).text).toBe('deleted a.txt');
    expect(client.asked).toEqual([]);
    expect(ran(log)).toEqual(['fetch_page', 'delete_file']);
  });

  test('a result from an untrusted server taints too, even from a closed-world read', async () => {
    const log = join(dir, `upstream-${++logs}.log`);
    const { url } = await startGateway({
      servers: {
        web: { command: process.execPath, args: [fixture], env: { GATEWAY_FIXTURE_LOG: log }, stderr: 'ignore' },
      },
    });
    const client = await connect('v2', url, 'deny');
    // Before any result, nothing untrusted is in the conversation…
    expect((await client.call('web__delete_file', { path: 'a.txt' })).text).toBe('deleted a.txt');
    // …then a closed-world read from a server that is not trusted brings its content in.
    expect((await client.call('web__lookup', { word: 'tea' })).isError).toBeFalsy();
    const held = await client.call('web__delete_file', { path: 'b.txt' });
    expect(held.isError).toBe(true);
    expect(client.asked).toHaveLength(1);
    expect(client.asked[0]).toContain('the result of web__lookup (server web: untrusted)');
    expect(ran(log)).toEqual(['delete_file', 'lookup']);
  });
});

describe('a host in front of the gateway', () => {
  test('reads the untrusted label on results and taints its own conversation from it', async () => {
    const { createHost, createTaintSession } = await import('../../src/host/index.js');
    const log = join(dir, `upstream-${++logs}.log`);
    const { url } = await startGateway({
      servers: {
        web: { command: process.execPath, args: [fixture], env: { GATEWAY_FIXTURE_LOG: log }, stderr: 'ignore' },
      },
      taint: 'off',
    });
    const hostOf = async (declare: boolean) => {
      const host = await createHost({
        servers: { gw: { url, trust: 'trusted' } },
        policy: 'yolo',
        taint: 'ask',
        ...(declare ? { clientCapabilities: { extensions: { 'io.modelcontextprotocol/trust-annotations': {} } } } : {}),
      });
      open.push({ close: () => host.close() });
      return host;
    };
    for (const declare of [true, false]) {
      const host = await hostOf(declare);
      const conversation = createTaintSession();
      const looked = await host.call('gw__web__lookup', { word: 'tea' }, { taint: conversation });
      expect(looked.status).toBe('ok');
      const decision = await host.decide('gw__web__delete_file', { path: 'a.txt' }, { taint: conversation });
      if (declare) {
        // The gateway's upstream is not trusted: its closed-world result comes labelled untrusted.
        expect(looked.result?._meta?.['io.modelcontextprotocol/trust-annotations']).toMatchObject({ untrusted: true });
        expect(decision.decision).toBe('ask');
        expect(decision.reason).toContain('the result of gw__web__lookup (server gw: untrusted)');
      } else {
        expect(decision.decision).toBe('allow');
      }
    }
  });
});
