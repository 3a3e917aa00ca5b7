/**
 * The gateway with real upstreams: candor's workspace server over
 * HTTP, server-everything / server-memory / server-filesystem from npm over
 * stdio, and fixtures that crash, never answer the handshake, drift under a
 * lockfile, flood list_changed and send large results. Progress, logging,
 * cancellation, elicitation and sampling pass through; resources (ui://
 * included) and prompts are routed to their owner.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, test } from 'vitest';
import { createWorkspaceServer } from '../../examples/workspace/index.js';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/index.js';
import { readLockfile } from '../../src/host/index.js';
import { until } from '../support/until.js';

const require = createRequire(import.meta.url);
const fixture = join(import.meta.dirname, '../fixtures/gateway/upstream.mjs');
const drifting = join(import.meta.dirname, '../fixtures/host/drifting-server.mjs');
const bin = (pkg: string) => require.resolve(`@modelcontextprotocol/${pkg}/dist/index.js`);
const dir = mkdtempSync(join(tmpdir(), 'candor-gateway-up-'));
const open: Array<() => Promise<unknown>> = [];
const silent = { error() {}, warn() {}, info() {}, debug() {} };

afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

async function start(options: GatewayOptions): Promise<{ gateway: Gateway; url: string }> {
  const gateway = await createGateway({ logger: silent, ...options });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  open.push(
    () => gateway.close(),
    () => listener.close(),
  );
  return { gateway, url: listener.url };
}

async function connect(
  url: string,
  handlers: { elicit?: (params: { message: string }) => unknown; sample?: () => unknown } = {},
): Promise<Client> {
  const capabilities: Record<string, object> = {};
  if (handlers.elicit) capabilities.elicitation = { form: {} };
  if (handlers.sample) capabilities.sampling = {};
  const client = new Client({ name: 'downstream', version: '1.0.0' }, { capabilities });
  if (handlers.elicit) {
    const elicit = handlers.elicit;
    client.setRequestHandler('elicitation/create', async (r) => elicit(r.params as { message: string }) as never);
  }
  if (handlers.sample) {
    const sample = handlers.sample;
    client.setRequestHandler('sampling/createMessage', async () => sample() as never);
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  open.push(() => client.close());
  return client;
}

/** This process's children (Linux /proc), with their command lines. */
function childProcesses(): Array<{ pid: number; cmdline: string }> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      found.push({ pid: Number(entry), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((b) => b.text ?? '').join('\n');

describe('third-party and candor upstreams', () => {
  test('aggregates the workspace server over HTTP and server-memory and server-filesystem over stdio', async () => {
    const root = mkdtempSync(join(dir, 'ws-'));
    writeFileSync(join(root, 'hello.txt'), 'hello from the workspace');
    const workspace = createWorkspaceServer({ root, lintOnStart: false });
    const listener = await workspace.listen({ port: 0, handleSignals: false });
    open.push(
      () => workspace.close(),
      () => listener.close(),
    );
    const { url, gateway } = await start({
      servers: {
        files: { url: listener.url, trust: 'trusted' },
        memory: {
          command: process.execPath,
          args: [bin('server-memory')],
          env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
          stderr: 'ignore',
        },
        fs: { command: process.execPath, args: [bin('server-filesystem'), root], stderr: 'ignore' },
      },
      policy: { preset: 'default', rules: [{ decision: 'allow', tools: 'memory__read_graph' }] },
    });
    expect(gateway.status().map((s) => [s.name, s.state])).toEqual([
      ['files', 'up'],
      ['memory', 'up'],
      ['fs', 'up'],
    ]);
    const client = await connect(url);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['files__read_file', 'memory__read_graph', 'fs__read_text_file']));
    expect(names.every((n) => /^(files|memory|fs)__/.test(n))).toBe(true);
    // A trusted read-only tool runs without a question; an allow rule lets an untrusted one through.
    const read = await client.callTool({ name: 'files__read_file', arguments: { path: 'hello.txt' } });
    expect(text(read)).toContain('hello from the workspace');
    const graph = await client.callTool({ name: 'memory__read_graph', arguments: {} });
    expect(graph.isError).toBeFalsy();
    expect(graph.structuredContent ?? JSON.parse(text(graph))).toMatchObject({ entities: [] });
    // Untrusted and no elicitation: refused with advice, never silently run.
    const fsRead = await client.callTool({ name: 'fs__read_text_file', arguments: { path: join(root, 'hello.txt') } });
    expect(fsRead.isError).toBe(true);
    expect(text(fsRead)).toContain('elicitation');
  });

  test('server-everything: elicitation and sampling requests reach the downstream client, progress and logs come back', async () => {
    const { url } = await start({
      servers: {
        everything: { command: process.execPath, args: [bin('server-everything'), 'stdio'], stderr: 'ignore' },
      },
      policy: 'yolo',
    });
    const elicited: string[] = [];
    const client = await connect(url, {
      elicit: ({ message }) => {
        elicited.push(message);
        return {
          action: 'accept',
          content: { name: 'Ada', check: true, firstLine: 'x', email: 'ada@example.com', integer: 7 },
        };
      },
      sample: () => ({
        role: 'assistant',
        content: { type: 'text', text: 'sampled by the downstream client' },
        model: 'test-model',
      }),
    });
    const names = (
      await until(
        () => client.listTools(),
        (r) => r.tools.some((t) => t.name === 'everything__trigger-sampling-request'),
      )
    ).tools.map((t) => t.name);
    expect(names).toContain('everything__trigger-elicitation-request');
    expect(names).toContain('everything__trigger-sampling-request');

    const elicitation = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
    expect(elicited).toHaveLength(1);
    expect(elicited[0]).toContain('everything:');
    expect(text(elicitation)).toContain('Ada');

    const sampling = await client.callTool({
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'hi', maxTokens: 10 },
    });
    expect(text(sampling)).toContain('sampled by the downstream client');

    const progress: number[] = [];
    const long = await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(long.isError).toBeFalsy();
    // server-everything writes its last progress and the result back to back; the SDK client
    // upstream resolves the call first and drops a progress that shares the read with the result
    // (seen with direct connections too), so only the first steps are certain to arrive.
    expect(progress.slice(0, 2)).toEqual([1, 2]);
  });
});

describe('upstreams that misbehave', () => {
  test('an upstream that crashes is reported and retried; the others keep serving', async () => {
    const { url, gateway } = await start({
      servers: {
        notes: { command: process.execPath, args: [fixture], stderr: 'ignore' },
        crashy: { command: process.execPath, args: [fixture], env: { GATEWAY_FIXTURE: 'crash' }, stderr: 'ignore' },
      },
      policy: 'yolo',
      reconnect: { initialDelayMs: 100, maxDelayMs: 400 },
    });
    const client = await connect(url);
    const down = await until(
      () => gateway.status().find((s) => s.name === 'crashy')!,
      (s) => s.state === 'down' && s.retryAt !== undefined,
    );
    expect(down.state).toBe('down');
    expect(down.retryAt).toBeDefined();
    const status = await client.readResource({ uri: 'candor://gateway/status' });
    const report = JSON.parse((status.contents[0] as { text: string }).text);
    expect(report.upstreams.map((u: { name: string }) => u.name)).toEqual(['notes', 'crashy']);
    expect(report.upstreams[0].state).toBe('up');
    const ok = await client.callTool({ name: 'notes__read_notes', arguments: {} });
    expect(ok.isError).toBeFalsy();
    const failed = await client.callTool({ name: 'crashy__read_notes', arguments: {} });
    // The call settles (never a hang): refused as unreachable, or run by a freshly restarted
    // process before it crashes again. Which one depends on timing; either is a proper result.
    if (failed.isError === true) expect(text(failed)).toMatch(/crashy|reach|connect|closed/i);
    else expect(text(failed)).toBe('[]');
  });

  test('an upstream SIGKILLed under concurrent calls is started again once, not once per call (no leaked children)', async () => {
    const tag = `--tag=${crypto.randomUUID()}`;
    const { url } = await start({
      servers: { notes: { command: process.execPath, args: [fixture, tag], stderr: 'ignore' } },
      policy: 'yolo',
      reconnect: { initialDelayMs: 100, maxDelayMs: 400 },
    });
    const client = await connect(url);
    expect((await client.callTool({ name: 'notes__read_notes', arguments: {} })).isError).toBeFalsy();
    const upstreams = () => childProcesses().filter((p) => p.cmdline.includes(tag));
    const [first] = upstreams();
    expect(upstreams()).toHaveLength(1);
    process.kill(first!.pid, 'SIGKILL');
    await until(
      () => upstreams(),
      (list) => !list.some((p) => p.pid === first!.pid),
    );
    // Eight calls at once find the upstream gone; each settles, and they share one reconnection.
    const settled = await Promise.allSettled(
      Array.from({ length: 8 }, () => client.callTool({ name: 'notes__read_notes', arguments: {} })),
    );
    expect(settled.every((s) => s.status === 'fulfilled')).toBe(true);
    const ok = await until(
      () => client.callTool({ name: 'notes__read_notes', arguments: {} }),
      (result) => result.isError !== true,
    );
    expect(ok.isError).toBeFalsy();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(upstreams()).toHaveLength(1);
  });

  test('an upstream that never finishes the handshake is given up on; the gateway serves the others', async () => {
    const { url, gateway } = await start({
      servers: {
        notes: { command: process.execPath, args: [fixture], stderr: 'ignore' },
        silent: {
          command: process.execPath,
          args: [fixture],
          env: { GATEWAY_FIXTURE: 'silent' },
          stderr: 'ignore',
          connectTimeoutMs: 1_000,
        },
      },
      policy: 'yolo',
      reconnect: { initialDelayMs: 60_000 },
    });
    const silentState = gateway.status().find((s) => s.name === 'silent')!;
    expect(silentState.state).toBe('down');
    expect(silentState.error).toContain('handshake');
    const client = await connect(url);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.some((n) => n.startsWith('notes__'))).toBe(true);
    expect(names.some((n) => n.startsWith('silent__'))).toBe(false);
  });

  test('a flood of list_changed becomes at most a couple of downstream notifications, and serving goes on', async () => {
    const { url } = await start({
      servers: { notes: { command: process.execPath, args: [fixture], stderr: 'ignore' } },
      policy: 'yolo',
    });
    const client = await connect(url);
    let notified = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      notified++;
    });
    const flood = await client.callTool({ name: 'notes__flood', arguments: { times: 200 } });
    expect(text(flood)).toBe('flooded 200');
    await new Promise((resolve) => setTimeout(resolve, 600));
    // The tool set is the same before and after the flood: nothing to announce.
    expect(notified).toBeLessThanOrEqual(1);
    expect((await client.callTool({ name: 'notes__read_notes', arguments: {} })).isError).toBeFalsy();
  });

  test('a large upstream result (8 MB) passes through whole, and the next call works', async () => {
    const { url } = await start({
      servers: { notes: { command: process.execPath, args: [fixture], stderr: 'ignore' } },
      policy: 'yolo',
    });
    const client = await connect(url);
    const big = await client.callTool({ name: 'notes__big_result', arguments: { bytes: 8_000_000 } });
    expect(text(big).length).toBe(8_000_000);
    expect((await client.callTool({ name: 'notes__read_notes', arguments: {} })).isError).toBeFalsy();
  });

  test('progress and log messages pass through; a downstream cancel cancels the upstream call', async () => {
    const log = join(dir, 'cancel.log');
    const { url } = await start({
      servers: {
        notes: { command: process.execPath, args: [fixture], env: { GATEWAY_FIXTURE_LOG: log }, stderr: 'ignore' },
      },
      policy: 'yolo',
    });
    const client = await connect(url);
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => {
      logs.push(n.params.data);
    });
    await client.setLoggingLevel('debug');
    const progress: Array<{ progress: number; total?: number }> = [];
    const counted = await client.callTool(
      { name: 'notes__count_slowly', arguments: {} },
      { onprogress: (p) => progress.push({ progress: p.progress, total: p.total }) },
    );
    expect(text(counted)).toBe('done');
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    await until(
      () => logs.length,
      (n) => n > 0,
      2_000,
    );
    expect(logs).toContain('counted to three');

    const controller = new AbortController();
    const waiting = client.callTool({ name: 'notes__wait_forever', arguments: {} }, { signal: controller.signal });
    await until(
      () => readFileSync(log, 'utf8'),
      (t) => t.includes('wait_forever'),
      5_000,
    );
    controller.abort();
    await expect(waiting).rejects.toThrow();
    const seen = await until(
      () => readFileSync(log, 'utf8'),
      (t) => t.includes('wait_forever:cancelled'),
      5_000,
    );
    expect(seen).toContain('wait_forever:cancelled');
  });

  test('2026-07-28 downstream: closing the request cancels the upstream call', async () => {
    const log = join(dir, 'cancel-modern.log');
    const { url } = await start({
      servers: {
        notes: { command: process.execPath, args: [fixture], env: { GATEWAY_FIXTURE_LOG: log }, stderr: 'ignore' },
      },
      policy: 'yolo',
    });
    const client = new Client(
      { name: 'modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    open.push(() => client.close());
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const controller = new AbortController();
    const waiting = client.callTool({ name: 'notes__wait_forever', arguments: {} }, { signal: controller.signal });
    await until(
      () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
      (t) => t.includes('wait_forever'),
      5_000,
    );
    controller.abort();
    await expect(waiting).rejects.toThrow();
    const seen = await until(
      () => readFileSync(log, 'utf8'),
      (t) => t.includes('wait_forever:cancelled'),
      5_000,
    );
    expect(seen).toContain('wait_forever:cancelled');
  });

  test('roots requests from an upstream are answered by the downstream client', async () => {
    const { url } = await start({
      servers: {
        everything: { command: process.execPath, args: [bin('server-everything'), 'stdio'], stderr: 'ignore' },
      },
      policy: 'yolo',
    });
    const client = new Client({ name: 'roots', version: '1.0.0' }, { capabilities: { roots: { listChanged: false } } });
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///projects/demo', name: 'demo' }] }));
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    open.push(() => client.close());
    const tools = await until(
      () => client.listTools(),
      (r) => r.tools.some((t) => t.name === 'everything__get-roots-list'),
    );
    expect(tools.tools.map((t) => t.name)).toContain('everything__get-roots-list');
    const result = await client.callTool({ name: 'everything__get-roots-list', arguments: {} });
    expect(text(result)).toContain('file:///projects/demo');
  });

  test('resources (ui:// included) and prompts are routed to their owner', async () => {
    const { url } = await start({
      servers: { notes: { command: process.execPath, args: [fixture], stderr: 'ignore' } },
      policy: 'yolo',
    });
    const client = await connect(url);
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['notes://all', 'ui://notes/view', 'candor://gateway/status']));
    const view = await client.readResource({ uri: 'ui://notes/view' });
    expect((view.contents[0] as { text: string; mimeType?: string }).text).toContain('<p>notes</p>');
    expect(view.contents[0]!.mimeType).toBe('text/html;profile=mcp-app');
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toContain('notes__summarize');
    const prompt = await client.getPrompt({ name: 'notes__summarize', arguments: { style: 'terse' } });
    expect(JSON.stringify(prompt.messages)).toContain('terse style');
    // Completion is routed to the prompt's owner, under its own name there.
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'notes__summarize' },
      argument: { name: 'style', value: 't' },
    });
    expect(completion.completion.values).toEqual(['terse', 'thorough']);
  });
});

describe('pins', () => {
  test('a tool that changes under a lockfile is blocked, the refusal shows the field diff, and one list_changed goes down', async () => {
    const lock = join(dir, 'drift.lock.json');
    const { url, gateway } = await start({
      servers: { drift: { command: process.execPath, args: [drifting], stderr: 'ignore' } },
      policy: 'yolo',
      lock: { file: lock },
    });
    gateway.host.pins.pinServer('drift');
    await gateway.host.pins.save();
    expect(Object.keys((await readLockfile(lock))!.servers)).toEqual(['drift']);
    const client = await connect(url);
    let notified = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      notified++;
    });
    expect((await client.callTool({ name: 'drift__flip', arguments: {} })).isError).toBeFalsy();
    await until(
      () => notified,
      (n) => n > 0,
      5_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notified).toBe(1);
    const blocked = await client.callTool({ name: 'drift__delete_record', arguments: { id: 'a' } });
    expect(blocked.isError).toBe(true);
    expect(text(blocked)).toContain('changed since it was pinned');
    expect(text(blocked)).toContain('readOnlyHint true → false');
    const tool = (await client.listTools()).tools.find((t) => t.name === 'drift__delete_record')!;
    expect((tool._meta!['dev.candor/gateway'] as { pin: string }).pin).toBe('changed');
  });

  test('candor pin on a gateway config pins every upstream at once', async () => {
    const config = join(dir, 'candor.gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: {
          notes: { command: process.execPath, args: [fixture] },
          memory: {
            command: process.execPath,
            args: [bin('server-memory')],
            env: { MEMORY_FILE_PATH: join(dir, 'm2.jsonl') },
          },
        },
        policy: 'default',
      }),
    );
    const { execFile } = await import('node:child_process');
    const lock = join(dir, 'all.lock.json');
    const cli = join(import.meta.dirname, '../../dist/src/cli/main.js');
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, [cli, 'pin', '--config', config, '--lock', lock], (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    const pinned = (await readLockfile(lock))!;
    expect(Object.keys(pinned.servers).sort()).toEqual(['memory', 'notes']);
    expect(Object.keys(pinned.servers.notes!.tools)).toContain('write_note');
  });
});
