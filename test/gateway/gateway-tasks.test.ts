/**
 * Tasks through the gateway, between eras. Any proxied call can be a task at the
 * gateway: a 2025-11-25 client asks with `task: {}` and reads `tasks/result`; a
 * 2026-07-28 client declares the tasks extension and polls `tasks/get`. Behind the
 * gateway, stdio upstreams that speak only 2025-11-25 (the SDK v1 server) or only
 * 2026-07-28 (a candor server), each with a tool that runs only as a task upstream.
 * A task cancelled downstream cancels the upstream call.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt } from '../support/cli-harness.js';
import { listenGateway } from '../support/gateway-listener.js';
import { modernClient, pollTask, rawSession } from '../support/task-wire.js';
import { until, waitFor } from '../support/until.js';

const fixture = join(import.meta.dirname, '../fixtures/gateway/era-upstream.mjs');
const dir = mkdtempSync(join(tmpdir(), 'candor-gateway-tasks-'));
const open: Array<() => Promise<unknown>> = [];
const silent = { error() {}, warn() {}, info() {}, debug() {} };
let url: string;

beforeAll(async () => {
  ensureBuilt();
  const upstream = (mode: string) => ({
    command: process.execPath,
    args: [fixture, mode],
    env: { ERA_FIXTURE_LOG: join(dir, `${mode}.log`) },
    stderr: 'ignore' as const,
  });
  const gateway = await listenGateway({
    logger: silent,
    servers: { legacy: upstream('legacy-only'), modern: upstream('modern-only') },
    policy: 'yolo',
  });
  url = gateway.url;
  open.push(() => gateway.close());
}, 60_000);

afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

const text = (result: unknown) =>
  ((result as { content?: Array<{ type: string; text?: string }> }).content ?? []).map((c) => c.text ?? '').join('');
const logOf = (mode: string) => {
  const file = join(dir, `${mode}.log`);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};

describe.each(['legacy', 'modern'] as const)('in front of the %s-only upstream', (server) => {
  const mode = `${server}-only`;

  test("a 2025-11-25 client sees every tool take tasks and gets a task-only tool's result through tasks/result", async () => {
    const client = await rawSession(url);
    const listed = await client.request('tools/list');
    const slow = ((listed.result?.tools ?? []) as Array<Record<string, any>>).find((t) => t.name === `${server}__slow`);
    expect(slow?.execution).toEqual({ taskSupport: 'optional' });
    const created = await client.request('tools/call', { name: `${server}__slow`, arguments: { n: 6 }, task: {} });
    const taskId = created.result?.task?.taskId as string;
    expect(typeof taskId).toBe('string');
    const result = await client.request('tasks/result', { taskId });
    expect(text(result.result)).toBe('slow 36');
    const done = await client.request('tasks/get', { taskId });
    expect(done.result?.status).toBe('completed');
  });

  test('a 2026-07-28 client that declares the tasks extension gets a task and polls it to the result', async () => {
    const call = modernClient(url);
    const created = await call('tools/call', { name: `${server}__echo`, arguments: { text: 'as a task' } });
    expect(created.result?.resultType).toBe('task');
    const taskId = created.result?.taskId as string;
    const done = await pollTask(call, taskId, (status) => status === 'completed');
    expect(text(done.result)).toBe('echo: as a task');
    const slow = await call('tools/call', { name: `${server}__slow`, arguments: { n: 3 } });
    const finished = await pollTask(call, slow.result?.taskId as string, (status) => status === 'completed');
    expect(text(finished.result)).toBe('slow 9');
  });

  test('a 2026-07-28 client without the extension gets a plain result', async () => {
    const call = modernClient(url, { tasks: false });
    const answer = await call('tools/call', { name: `${server}__echo`, arguments: { text: 'plain' } });
    expect(answer.result?.resultType).toBe('complete');
    expect(text(answer.result)).toBe('echo: plain');
  });

  test('cancelling the task downstream cancels the call upstream', async () => {
    const client = await rawSession(url);
    const created = await client.request('tools/call', { name: `${server}__wait`, arguments: {}, task: {} });
    const taskId = created.result?.task?.taskId as string;
    await waitFor(() => logOf(mode).includes('wait:started'), 'the call upstream');
    const cancelled = await client.request('tasks/cancel', { taskId });
    expect(cancelled.result?.status).toBe('cancelled');
    const seen = await until(
      () => logOf(mode),
      (t) => t.includes('wait:cancelled'),
    );
    expect(seen).toContain('wait:cancelled');
  });
});
