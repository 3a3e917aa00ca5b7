/**
 * The workspace server's `run_command` as an MCP task: listed with
 * `execution.taskSupport: "optional"`, run in the background with the longer
 * task time limit, polled and read with the SDK v1 client's tasks API over
 * Streamable HTTP, and cancelled — which kills the process.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createWorkspaceServer } from '../../examples/workspace/index.js';
import { silentLogger } from '../../src/util/logger.js';
import { closeAll, track } from '../support/http-support.js';

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-task-run-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(closeAll);

async function connect(limits: { commandTimeoutMs?: number; taskCommandTimeoutMs?: number } = {}) {
  const server = createWorkspaceServer({ root, logger: silentLogger, lintOnStart: false, limits });
  const listener = await server.listen({ port: 0, handleSignals: false, env: {} });
  track({ close: () => server.close() });
  const client = new Client({ name: 'workspace-tasks', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  track({ close: () => client.close() });
  return client;
}

async function startTask(client: Client, argv: string[]): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'run_command', arguments: { argv }, task: {} } },
    CreateTaskResultSchema,
  );
  return created.task.taskId;
}

describe('run_command as a task', () => {
  test('is listed as task-optional and the server advertises tasks', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'run_command')?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.filter((t) => t.execution !== undefined).map((t) => t.name)).toEqual(['run_command']);
    expect(client.getServerCapabilities()?.tasks?.requests).toEqual({ tools: { call: {} } });
  });

  test('a command longer than the plain-call limit finishes as a task', async () => {
    const client = await connect({ commandTimeoutMs: 200, taskCommandTimeoutMs: 20_000 });
    const argv = [process.execPath, '-e', 'setTimeout(() => console.log("built"), 600)'];
    // As a plain call it is killed at the 200 ms limit …
    const plain = (await client.callTool({ name: 'run_command', arguments: { argv } })) as any;
    expect(plain.structuredContent).toMatchObject({ timedOut: true });
    // … as a task it runs to the end.
    const taskId = await startTask(client, argv);
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'working' });
    const result = (await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)) as any;
    expect(result.structuredContent).toMatchObject({ exitCode: 0, stdout: 'built\n', timedOut: false });
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'completed' });
  });

  test('cancelling the task kills the command', async () => {
    const { existsSync, readFileSync } = await import('node:fs');
    const client = await connect();
    const started = path.join(root, 'started');
    const marker = path.join(root, 'still-running');
    // The command says it runs (its pid), then would write the marker much later.
    const script = `require('node:fs').writeFileSync(${JSON.stringify(started)}, String(process.pid)); setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 60000)`;
    const taskId = await startTask(client, [process.execPath, '-e', script]);
    await expect
      .poll(() => existsSync(started) && readFileSync(started, 'utf8') !== '', { timeout: 10_000 })
      .toBe(true);
    const pid = Number(readFileSync(started, 'utf8'));
    expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({ status: 'cancelled' });
    // The process is gone (signal 0 finds no such process), and it never got to write the marker.
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await expect.poll(alive, { timeout: 10_000 }).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });
});
