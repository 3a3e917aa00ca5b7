/**
 * `candor call` over Streamable HTTP in 2026-07-28 mirrors the arguments a tool's input
 * schema marks with `x-mcp-header` into `Mcp-Param-*` headers on its first `tools/call`
 * (Streamable HTTP, "Custom Headers from Tool Parameters"), Base64-encoding a value that
 * is not plain visible ASCII; the candor server behind a recording front checks them. A
 * tool whose declarations are invalid is not called in 2026-07-28 (the spec's MUST).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import type { HttpListener } from '../../src/transports/http/listen.js';
import { silentLogger } from '../../src/util/logger.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';
import { buildModernServer } from '../support/modern-fixture.js';
import { type RecordingFront, startRecordingFront } from '../support/recording-front.js';

let listener: HttpListener;
let badHeaders: HttpListener;
let front: RecordingFront;

beforeAll(async () => {
  ensureBuilt();
  listener = await buildModernServer().server.listen({ port: 0, handleSignals: false });
  front = await startRecordingFront(listener.url);
  const route = defineTool({
    name: 'route',
    description: 'Route a parcel (its x-mcp-header sits on an object, which the spec forbids).',
    effect: 'read',
    world: 'closed',
    input: { type: 'object', properties: { parcel: { type: 'object', 'x-mcp-header': 'Parcel' } } },
    handler: () => 'routed',
  });
  badHeaders = await createServer({ name: 'bad-headers', version: '1', tools: [route], logger: silentLogger }).listen({
    port: 0,
    handleSignals: false,
  });
}, 120_000);

afterAll(async () => {
  await front?.close();
  await listener?.close();
  await badHeaders?.close();
});

it.each([
  ['eu-west', 'eu-west'],
  [' Zürich ', `=?base64?${Buffer.from(' Zürich ').toString('base64')}?=`],
])('candor call sends the region %j as Mcp-Param-Region on its first tools/call', async (region, header) => {
  const from = front.requests.length;
  const { code, stdout, stderr } = await runCli([
    'call',
    front.url,
    'regional',
    JSON.stringify({ region }),
    '--protocol',
    '2026-07-28',
  ]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toBe(`ran in ${region}\n`);
  const calls = front.requests.slice(from).filter((r) => r.rpcMethod === 'tools/call');
  expect(calls).toHaveLength(1);
  expect(calls[0]?.headers['mcp-param-region']).toBe(header);
  expect(calls[0]?.status).toBe(200);
});

it('candor call sends no Mcp-Param header for a tool that declares none', async () => {
  const from = front.requests.length;
  const { code } = await runCli(['call', front.url, 'echo', '--arg', 'text=hi', '--protocol', '2026-07-28']);
  expect(code).toBe(0);
  const calls = front.requests.slice(from).filter((r) => r.rpcMethod === 'tools/call');
  expect(calls).toHaveLength(1);
  expect(Object.keys(calls[0]?.headers ?? {}).filter((h) => h.startsWith('mcp-param-'))).toEqual([]);
});

it('candor call refuses, in 2026-07-28 over HTTP, a tool whose x-mcp-header is invalid, and calls it in 2025-11-25', async () => {
  const modern = await runCli(['call', badHeaders.url, 'route', '{"parcel":{}}', '--protocol', '2026-07-28']);
  expect(modern.code).toBe(1);
  expect(modern.stderr).toContain(
    'declares its Mcp-Param headers wrongly (parcel: x-mcp-header "Parcel" is on a "object" property',
  );
  expect(modern.stdout).toBe('');
  const legacy = await runCli(['call', badHeaders.url, 'route', '{"parcel":{}}', '--protocol', '2025-11-25']);
  expect(legacy.stderr).toBe('');
  expect(legacy.stdout).toBe('routed\n');
});
