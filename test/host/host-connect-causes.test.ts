/**
 * The host's own connection path (used by candor gateway and the console) names why an
 * HTTP server cannot be reached and what to do, over the real wire: nothing listening,
 * a wrong path. fetch alone says "fetch failed".
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/index.js';

const servers: Server[] = [];

function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function failure(url: string): Promise<string> {
  try {
    const host = await createHost({ servers: { remote: { url } } });
    await host.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('createHost connected to a server that is not there');
}

describe('host connection failures', () => {
  it('says nothing is listening, and to start the server, when the port refuses', async () => {
    const port = await listen(() => {});
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const message = await failure(`http://127.0.0.1:${port}/mcp`);
    expect(message).toContain(
      `remote: Cannot connect to server "remote": nothing is listening at 127.0.0.1:${port} (connection refused). Start the server, or check the port in the URL.`,
    );
    expect(message).not.toContain('fetch failed');
  });

  it('says the path is wrong when the server answers 404', async () => {
    const port = await listen((_request, response) => response.writeHead(404).end('not here'));
    const message = await failure(`http://127.0.0.1:${port}/wrong`);
    expect(message).toContain(
      'Cannot connect to server "remote": nothing at /wrong (HTTP 404). Check the path in the URL: MCP servers usually answer at /mcp.',
    );
  });
});
