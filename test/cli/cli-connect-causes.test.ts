/**
 * A connection that fails says why and what to do next, over the real wire: a plain
 * node:http server that answers 403 at /mcp and 404 elsewhere, the same server reached
 * with https://, and a host name that does not exist (.invalid never resolves).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

let server: Server;
let port: number;

beforeAll(async () => {
  ensureBuilt();
  server = createServer((request, response) => {
    response.writeHead(request.url === '/mcp' ? 403 : 404).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 120_000);
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('candor inspect names the cause of a failed connection', () => {
  it('says the path is wrong on a 404, and where MCP servers usually answer', async () => {
    const { code, stderr } = await runCli(['inspect', `http://127.0.0.1:${port}/wrong`]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `cannot connect to http://127.0.0.1:${port}/wrong: nothing at /wrong (HTTP 404). Check the path in the URL: MCP servers usually answer at /mcp.`,
    );
    expect(stderr).not.toContain('fetch failed');
  });

  it('says access was refused on a 403', async () => {
    const { stderr } = await runCli(['inspect', `http://127.0.0.1:${port}/mcp`]);
    expect(stderr).toContain('the server refused access (HTTP 403)');
  });

  it('says the server does not speak https when https:// reaches a plain HTTP port', async () => {
    const { stderr } = await runCli(['inspect', `https://127.0.0.1:${port}/mcp`]);
    expect(stderr).toContain(
      `TLS failed: 127.0.0.1:${port} does not speak https on that port. Try http://127.0.0.1:${port}/mcp.`,
    );
  });

  it('says the host name was not found', async () => {
    const { stderr } = await runCli(['inspect', 'https://no-such-host.invalid/mcp']);
    expect(stderr).toContain('the name no-such-host.invalid was not found (DNS). Check the host name in the URL.');
  });
});
