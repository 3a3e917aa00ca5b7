/**
 * `candor call` over Streamable HTTP in 2026-07-28 mirrors the arguments a tool's input
 * schema marks with `x-mcp-header` into `Mcp-Param-*` headers on its first `tools/call`
 * (Streamable HTTP, "Custom Headers from Tool Parameters"), Base64-encoding a value that
 * is not plain visible ASCII; the candor server behind a recording front checks them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HttpListener } from '../../src/transports/http/listen.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';
import { buildModernServer } from '../support/modern-fixture.js';
import { type RecordingFront, startRecordingFront } from '../support/recording-front.js';

let listener: HttpListener;
let front: RecordingFront;

beforeAll(async () => {
  ensureBuilt();
  listener = await buildModernServer().server.listen({ port: 0, handleSignals: false });
  front = await startRecordingFront(listener.url);
}, 120_000);

afterAll(async () => {
  await front?.close();
  await listener?.close();
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
