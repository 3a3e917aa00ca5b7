/**
 * `candor gateway` end to end: a stdio upstream that lies, an SDK v2
 * (both eras) and an SDK v1 client downstream over Streamable HTTP, and every
 * policy path through the wire: allow, deny, ask → accept / decline / cancel /
 * a client that cannot elicit, allow-always surviving a restart, plan mode,
 * pin drift, rate limits, audit lines without secret values.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, test } from 'vitest';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/index.js';

const fixture = join(import.meta.dirname, '../fixtures/gateway/upstream.mjs');
const dir = mkdtempSync(join(tmpdir(), 'candor-gateway-'));
const open: Array<{ close(): Promise<unknown> }> = [];

afterAll(async () => {
  for (const item of open.reverse()) await item.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

let logCount = 0;
/** A fresh upstream log file: one line per call the upstream actually ran. */
function upstreamLog(): string {
  return join(dir, `upstream-${++logCount}.log`);
}
function ranCalls(log: string): Array<{ tool: string; args: Record<string, unknown> }> {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

async function startGateway(
  options: Partial<GatewayOptions> & { log?: string } = {},
): Promise<{ gateway: Gateway; url: string; log: string }> {
  const log = options.log ?? upstreamLog();
  const { log: _l, ...rest } = options;
  const gateway = await createGateway({
    servers: {
      notes: { command: process.execPath, args: [fixture], env: { GATEWAY_FIXTURE_LOG: log }, stderr: 'ignore' },
    },
    logger: silent,
    ...rest,
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  open.push({ close: () => gateway.close() }, { close: () => listener.close() });
  return { gateway, url: listener.url, log };
}

const silent = { error() {}, warn() {}, info() {}, debug() {} };

type Answer = { action: 'accept'; content: { decision: string } } | { action: 'decline' } | { action: 'cancel' };

async function clientV2(
  url: string,
  options: { elicit?: (message: string) => Answer; modern?: boolean } = {},
): Promise<{ client: ClientV2; asked: string[] }> {
  const asked: string[] = [];
  const client = new ClientV2(
    { name: 'downstream-v2', version: '1.0.0' },
    {
      capabilities: options.elicit ? { elicitation: { form: {} } } : {},
      ...(options.modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { message: string; requestedSchema: unknown };
      // What the person sees: the message, then the choices offered.
      asked.push(`${params.message}\n${JSON.stringify(params.requestedSchema)}`);
      return elicit(params.message) as never;
    });
  }
  await client.connect(new TransportV2(new URL(url)));
  open.push({ close: () => client.close() });
  return { client, asked };
}

const text = (result: unknown) =>
  ((result as { content: Array<{ type: string; text?: string }> }).content ?? []).map((b) => b.text ?? '').join('\n');

describe('tools downstream carry honest annotations', () => {
  test('every tool has all four hints and a title; the lying write is tightened, with the reason in _meta', async () => {
    const { url } = await startGateway();
    const { client } = await clientV2(url);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['notes__read_notes', 'notes__write_note', 'notes__delete_notes']));
    for (const tool of tools) {
      expect(Object.keys(tool.annotations ?? {}).sort()).toEqual(
        ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title'].sort(),
      );
    }
    const write = tools.find((t) => t.name === 'notes__write_note')!;
    expect(write.annotations?.readOnlyHint).toBe(false);
    const meta = write._meta?.['dev.candor/gateway'] as {
      original: Record<string, unknown>;
      corrections: Array<{ hint: string; from: boolean; to: boolean; rule: string }>;
      trust: string;
    };
    expect(meta.trust).toBe('untrusted');
    expect(meta.original).toMatchObject({ readOnlyHint: true });
    expect(meta.corrections).toContainEqual(expect.objectContaining({ hint: 'readOnlyHint', from: true, to: false }));
    const read = tools.find((t) => t.name === 'notes__read_notes')!;
    expect(read.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect((read._meta!['dev.candor/gateway'] as { corrections: unknown[] }).corrections).toEqual([]);
  });

  test('a trusted server is not tightened, and the overrides file beats the server', async () => {
    const overrides = join(dir, 'overrides.json');
    writeFileSync(
      overrides,
      JSON.stringify({ servers: { notes: { tools: { delete_notes: { effect: 'additive', world: 'closed' } } } } }),
    );
    const log = upstreamLog();
    const { url } = await startGateway({
      log,
      servers: {
        notes: {
          command: process.execPath,
          args: [fixture],
          env: { GATEWAY_FIXTURE_LOG: log },
          stderr: 'ignore',
          trust: 'trusted',
        },
      },
      overrides,
    });
    const { client } = await clientV2(url);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'notes__write_note')!.annotations?.readOnlyHint).toBe(true);
    const deleted = tools.find((t) => t.name === 'notes__delete_notes')!;
    expect(deleted.annotations?.destructiveHint).toBe(false);
    expect((deleted._meta!['dev.candor/gateway'] as { sources: Record<string, string> }).sources.destructiveHint).toBe(
      'override',
    );
  });
});

describe('policy on every call', () => {
  test('ask → accept allow-once runs the call; the person saw the tool, hints, reason and arguments', async () => {
    const { url, log } = await startGateway();
    const { client, asked } = await clientV2(url, {
      elicit: () => ({ action: 'accept', content: { decision: 'allow-once' } }),
    });
    const result = await client.callTool({ name: 'notes__write_note', arguments: { text: 'hello' } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('saved 1');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('notes__write_note');
    expect(asked[0]).toContain('Server: notes (untrusted)');
    expect(asked[0]).toContain('Hints: writes');
    expect(asked[0]).toContain('text="hello"');
    expect(ranCalls(log)).toEqual([{ tool: 'write_note', args: { text: 'hello' } }]);
  });

  test('ask → decline and ask → cancel refuse the call and the upstream never runs it', async () => {
    const { url, log } = await startGateway();
    for (const action of ['decline', 'cancel'] as const) {
      const { client } = await clientV2(url, { elicit: () => ({ action }) });
      const result = await client.callTool({ name: 'notes__delete_notes', arguments: {} });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(action === 'decline' ? 'declined' : 'cancelled');
    }
    expect(ranCalls(log)).toEqual([]);
  });

  test('ask → deny refuses the call', async () => {
    const { url, log } = await startGateway();
    const { client } = await clientV2(url, { elicit: () => ({ action: 'accept', content: { decision: 'deny' } }) });
    const result = await client.callTool({ name: 'notes__write_note', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('denied');
    expect(ranCalls(log)).toEqual([]);
  });

  test('a client that cannot elicit gets an error that says what to configure, never a silent allow or a hang', async () => {
    const { url, log } = await startGateway();
    const { client } = await clientV2(url);
    const result = await client.callTool({ name: 'notes__write_note', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('did not declare the elicitation capability');
    expect(text(result)).toContain('"decision": "allow"');
    expect(ranCalls(log)).toEqual([]);
  });

  test('a deny rule refuses without asking; an allow rule skips the question', async () => {
    const { url, log } = await startGateway({
      policy: {
        preset: 'default',
        rules: [
          { decision: 'deny', tools: 'notes__delete_*', reason: 'deleting notes is off limits' },
          { decision: 'allow', tools: 'notes__read_notes' },
        ],
      },
    });
    const { client, asked } = await clientV2(url, {
      elicit: () => ({ action: 'accept', content: { decision: 'allow-once' } }),
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('notes__delete_notes');
    // Hidden from the list, and refused if called anyway (unknown tool: -32602, SEP-1303).
    await expect(client.callTool({ name: 'notes__delete_notes', arguments: {} })).rejects.toThrow(/Unknown tool/);
    const read = await client.callTool({ name: 'notes__read_notes', arguments: {} });
    expect(read.isError).toBeFalsy();
    expect(asked).toEqual([]);
    expect(ranCalls(log).map((c) => c.tool)).toEqual(['read_notes']);
  });

  test('the command gate applies to configured shell tools: a read-only command runs, anything else asks', async () => {
    const { url, log } = await startGateway({ commandTools: { notes__run_shell: { argument: 'command' } } });
    const { client, asked } = await clientV2(url, { elicit: () => ({ action: 'decline' }) });
    const read = await client.callTool({ name: 'notes__run_shell', arguments: { command: 'ls -la src | head -5' } });
    expect(read.isError).toBeFalsy();
    expect(asked).toEqual([]);
    const write = await client.callTool({
      name: 'notes__run_shell',
      arguments: { command: 'cat notes.txt && rm -rf ~' },
    });
    expect(write.isError).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Command: cat notes.txt && rm -rf ~');
    expect(ranCalls(log)).toEqual([{ tool: 'run_shell', args: { command: 'ls -la src | head -5' } }]);
  });

  test('yolo runs without asking', async () => {
    const { url, log } = await startGateway({ policy: 'yolo' });
    const { client } = await clientV2(url);
    const result = await client.callTool({ name: 'notes__write_note', arguments: { text: 'y' } });
    expect(result.isError).toBeFalsy();
    expect(ranCalls(log).map((c) => c.tool)).toEqual(['write_note']);
  });

  test('plan mode lists only read-only tools (the tightened liar is not one) and refuses writes', async () => {
    const { url, log, gateway } = await startGateway({ policy: 'plan' });
    const { client } = await clientV2(url, {
      elicit: () => ({ action: 'accept', content: { decision: 'allow-once' } }),
    });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('notes__read_notes');
    expect(names).not.toContain('notes__write_note');
    expect(names).not.toContain('notes__delete_notes');
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    // Called by name anyway: refused by the gateway (the host's plan policy), the upstream never runs it.
    const direct = await gateway.host.call('notes__write_note', { text: 'no' });
    expect(direct.status).toBe('denied');
    expect(ranCalls(log)).toEqual([]);
  });

  test('allow-always is remembered in a file against the pin hash and survives a gateway restart', async () => {
    const approvalsFile = join(dir, 'approvals-restart.json');
    const first = await startGateway({ approvalsFile });
    const one = await clientV2(first.url, {
      elicit: () => ({ action: 'accept', content: { decision: 'allow-always' } }),
    });
    // An untrusted read-only tool asks in the default preset, and its allow-always may be remembered.
    expect((await one.client.callTool({ name: 'notes__read_notes', arguments: {} })).isError).toBeFalsy();
    expect((await one.client.callTool({ name: 'notes__read_notes', arguments: {} })).isError).toBeFalsy();
    expect(one.asked).toHaveLength(1);
    // An untrusted write counts as destructive: allow-always is not offered, so it asks every time.
    expect((await one.client.callTool({ name: 'notes__write_note', arguments: { text: 'a' } })).isError).toBeFalsy();
    expect((await one.client.callTool({ name: 'notes__write_note', arguments: { text: 'b' } })).isError).toBeFalsy();
    expect(one.asked).toHaveLength(3);
    expect(one.asked[0]).toContain('"const":"allow-always"');
    expect(one.asked[1]).not.toContain('allow-always');
    await first.gateway.close();
    const saved = JSON.parse(readFileSync(approvalsFile, 'utf8'));
    expect(saved.approvalsVersion).toBe(1);
    expect(Object.keys(saved.approvals)).toEqual(['notes__read_notes']);
    expect(saved.approvals.notes__read_notes[0]).toMatch(/^sha256:/);

    const second = await startGateway({ approvalsFile });
    const two = await clientV2(second.url, { elicit: () => ({ action: 'decline' }) });
    const result = await two.client.callTool({ name: 'notes__read_notes', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(two.asked).toEqual([]);
    const write = await two.client.callTool({ name: 'notes__write_note', arguments: { text: 'c' } });
    expect(write.isError).toBe(true);
    expect(two.asked).toHaveLength(1);
  });

  test('the 2026-07-28 era asks through input_required and the retried call runs', async () => {
    const { url, log } = await startGateway();
    const { client, asked } = await clientV2(url, {
      modern: true,
      elicit: () => ({ action: 'accept', content: { decision: 'allow-once' } }),
    });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await client.callTool({ name: 'notes__write_note', arguments: { text: 'modern' } });
    expect(text(result)).toBe('saved 1');
    expect(asked).toHaveLength(1);
    expect(ranCalls(log)).toEqual([{ tool: 'write_note', args: { text: 'modern' } }]);
  });

  test('an SDK v1 client is asked through elicitation/create too', async () => {
    const { url, log } = await startGateway();
    const client = new ClientV1({ name: 'downstream-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { decision: 'allow-once' } };
    });
    await client.connect(new TransportV1(new URL(url)));
    open.push({ close: () => client.close() });
    const result = await client.callTool({ name: 'notes__write_note', arguments: { text: 'v1' } });
    expect(result.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(ranCalls(log)).toEqual([{ tool: 'write_note', args: { text: 'v1' } }]);
  });

  test('the audit log has one line per call, with the decision and who made it, and no argument values', async () => {
    const audit = join(dir, 'audit.jsonl');
    const { url } = await startGateway({
      audit,
      policy: { preset: 'default', rules: [{ decision: 'allow', tools: 'notes__read_notes' }] },
    });
    const { client } = await clientV2(url, {
      elicit: (message) =>
        message.includes('delete') ? { action: 'decline' } : { action: 'accept', content: { decision: 'allow-once' } },
    });
    await client.callTool({ name: 'notes__write_note', arguments: { text: 'super-secret-token-123' } });
    await client.callTool({ name: 'notes__read_notes', arguments: {} });
    await client.callTool({ name: 'notes__delete_notes', arguments: {} });
    const raw = readFileSync(audit, 'utf8');
    expect(raw).not.toContain('super-secret-token-123');
    const lines = raw
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      tool: 'notes__write_note',
      decision: 'ask',
      decidedBy: 'person',
      answer: 'allow-once',
      outcome: 'ok',
      args: { keys: ['text'] },
    });
    expect(lines[0].args.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof lines[0].session).toBe('string');
    expect(lines[1]).toMatchObject({ tool: 'notes__read_notes', decision: 'allow', decidedBy: 'rule', outcome: 'ok' });
    expect(lines[2]).toMatchObject({
      tool: 'notes__delete_notes',
      decision: 'ask',
      answer: 'decline',
      outcome: 'denied',
    });
  });

  test('rate limits per tool and per server hold, reusing the pipeline limiter', async () => {
    const { url } = await startGateway({
      policy: 'yolo',
      rateLimits: {
        tools: { notes__read_notes: { windowMs: 60_000, max: 2 } },
        servers: { notes: { windowMs: 60_000, max: 3 } },
      },
    });
    const { client } = await clientV2(url);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await client.callTool({ name: 'notes__read_notes', arguments: {} }));
    expect(results.map((r) => r.isError === true)).toEqual([false, false, true]);
    expect(text(results[2])).toContain('Rate limit reached for tool "notes__read_notes"');
    // The server-wide limit: 2 reads above counted; one more call of another tool is the third, then refused.
    expect((await client.callTool({ name: 'notes__write_note', arguments: { text: 'z' } })).isError).toBeFalsy();
    const over = await client.callTool({ name: 'notes__write_note', arguments: { text: 'z' } });
    expect(over.isError).toBe(true);
    expect(text(over)).toContain('server "notes"');
  });
});

describe('the gateway as an OAuth resource server', () => {
  test('needs a token, and lists and runs tools by the scopes their honest hints call for', async () => {
    const { startAuthorizationServer } = await import('../support/test-authorization-server.js');
    const { createServer: netServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = netServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const resource = `http://127.0.0.1:${port}/mcp`;
    const issuer = await startAuthorizationServer({ resource });
    open.push({ close: () => issuer.close() });
    const log = upstreamLog();
    const gateway = await createGateway({
      servers: {
        notes: { command: process.execPath, args: [fixture], env: { GATEWAY_FIXTURE_LOG: log }, stderr: 'ignore' },
      },
      policy: 'yolo',
      logger: silent,
      auth: { issuer: issuer.issuer, jwks: issuer.jwksUri, resource },
    });
    const listener = await gateway.listen({ port, handleSignals: false });
    open.push({ close: () => gateway.close() }, { close: () => listener.close() });

    const anonymous = await fetch(resource, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata=');

    const token = await issuer.mint({ scope: 'tools:read' });
    const client = new ClientV2({ name: 'reader', version: '1.0.0' });
    await client.connect(
      new TransportV2(new URL(resource), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    open.push({ close: () => client.close() });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('notes__read_notes');
    // The liar's write was tightened to destructive, so it needs tools:destructive, not tools:read.
    expect(names).not.toContain('notes__write_note');
    expect((await client.callTool({ name: 'notes__read_notes', arguments: {} })).isError).toBeFalsy();
    await expect(client.callTool({ name: 'notes__write_note', arguments: { text: 'x' } })).rejects.toThrow();
    expect(ranCalls(log).map((c) => c.tool)).toEqual(['read_notes']);
  });
});
