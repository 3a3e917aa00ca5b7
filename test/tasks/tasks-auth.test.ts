/**
 * Tasks are bound to the caller's authorization context (2025-11-25 tasks,
 * "Task Isolation and Access Control": when an authorization context is
 * provided, receivers MUST bind tasks to it): with `auth`, a task started with
 * Alice's token is invisible to Bob's — get, result, cancel and list alike —
 * in both eras. Real signed tokens from the test authorization server.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CandorServer } from '../../src/server/create-server.js';
import { post } from '../support/http-support.js';
import { buildTaskServer } from '../support/task-server.js';
import { answerOf, MODERN, TASKS_EXTENSION } from '../support/task-wire.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../support/test-authorization-server.js';

let http: Server;
let as: TestAuthorizationServer;
let server: CandorServer;
let url: string;
let alice: string;
let bob: string;

beforeAll(async () => {
  http = createHttpServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  as = await startAuthorizationServer({ resource: url });
  server = buildTaskServer({ auth: { issuer: as.issuer, resource: url, jwks: as.jwksUri } }).server;
  const handler = server.httpHandler({ env: {}, sessions: 'stateless' });
  http.on('request', (req, res) => void handler.nodeHandler(req, res));
  alice = await as.mint({ sub: 'alice', scope: 'tools:read tools:write' });
  bob = await as.mint({ sub: 'bob', scope: 'tools:read tools:write' });
});

afterAll(async () => {
  await server.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
  await as.close();
});

let next = 0;
async function legacy(token: string, method: string, params: Record<string, unknown> = {}) {
  const id = ++next;
  const response = await post(
    url,
    { jsonrpc: '2.0', id, method, params },
    { authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-11-25' },
  );
  return answerOf(response, id);
}

async function modern(token: string, method: string, params: Record<string, unknown>) {
  const id = ++next;
  const name = (params.name ?? params.taskId) as string;
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
      },
    },
  };
  const headers = {
    authorization: `Bearer ${token}`,
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    'mcp-name': name,
  };
  return answerOf(await post(url, body, headers), id);
}

describe('tasks under auth', () => {
  test('2025-11-25: another subject cannot get, read, cancel or list the task', async () => {
    const created = await legacy(alice, 'tools/call', {
      name: 'slow_echo',
      arguments: { text: 'mine', ms: 100 },
      task: {},
    });
    const taskId = created.result!.task.taskId as string;
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expect((await legacy(bob, method, { taskId })).error, method).toMatchObject({ code: -32602 });
    }
    expect((await legacy(bob, 'tasks/list')).result!.tasks).toEqual([]);
    expect((await legacy(alice, 'tasks/list')).result!.tasks.map((t: { taskId: string }) => t.taskId)).toContain(
      taskId,
    );
    expect((await legacy(alice, 'tasks/result', { taskId })).result).toMatchObject({
      content: [{ type: 'text', text: 'echo: mine' }],
    });
  });

  test('2026-07-28: the same binding through the extension', async () => {
    const created = await modern(alice, 'tools/call', { name: 'slow_echo', arguments: { text: 'm', ms: 1 } });
    const taskId = created.result!.taskId as string;
    expect((await modern(bob, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
    expect((await modern(bob, 'tasks/cancel', { taskId })).error).toMatchObject({ code: -32602 });
    expect((await modern(alice, 'tasks/get', { taskId })).result).toMatchObject({ taskId });
  });
});
