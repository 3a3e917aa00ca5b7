/**
 * web_fetch and server-side request forgery, against real HTTP servers on
 * 127.0.0.1 (and nothing else: every refused address is refused before any
 * packet is sent). Through candor's engine and a real SDK v2 client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceServer, type WorkspaceServerOptions } from '../../examples/workspace/index.js';
import type { CandorServer } from '../../src/server/create-server.js';
import { createWireCheck } from '../support/wire-check.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Local {
  server: Server;
  port: number;
  requests: IncomingMessage[];
  handle: Handler;
}

async function local(handle: Handler): Promise<Local> {
  const entry = { requests: [] as IncomingMessage[], handle } as Local;
  entry.server = createServer((req, res) => {
    entry.requests.push(req);
    entry.handle(req, res);
  });
  await new Promise<void>((resolve) => entry.server.listen(0, '127.0.0.1', resolve));
  entry.port = (entry.server.address() as AddressInfo).port;
  return entry;
}

let root: string;
let site: Local;
let other: Local;
const open: Array<{ client: Client; server: CandorServer }> = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'candor-fetch-'));
  site = await local((req, res) => {
    if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
    } else if (req.url === '/to-other') {
      res.writeHead(302, { location: `http://127.0.0.1:${other.port}/secret` });
      res.end();
    } else if (req.url === '/to-file') {
      res.writeHead(301, { location: 'file:///etc/passwd' });
      res.end();
    } else if (req.url === '/hop') {
      res.writeHead(307, { location: '/hello' });
      res.end();
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('y'.repeat(5000));
    } else if (req.url === '/png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    } else if (req.url === '/hang') {
      // Never answers.
    } else {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`hello from ${req.headers.host}`);
    }
  });
  other = await local((_req, res) => res.end('internal secret'));
});

afterEach(async () => {
  for (const { client, server } of open.splice(0)) {
    await client.close();
    await server.close();
  }
  site.requests.length = 0;
  other.requests.length = 0;
});

afterAll(async () => {
  await new Promise((resolve) => site.server.close(resolve));
  await new Promise((resolve) => other.server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

async function fetchWith(
  options: Omit<WorkspaceServerOptions, 'root'>,
  url: string,
): Promise<{ text: string; isError: boolean }> {
  const server = createWorkspaceServer({ root, ...options });
  const client = new Client({ name: 'fetch-test', version: '1.0.0' });
  const wire = createWireCheck();
  await client.connect(wire.wrap(server.connectMemory()) as never);
  open.push({ client, server });
  const result = (await client.callTool({ name: 'web_fetch', arguments: { url } })) as {
    content: Array<{ text?: string }>;
    isError?: boolean;
  };
  wire.assertClean();
  return { text: result.content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true };
}

describe('web_fetch by default (public addresses only)', () => {
  it('refuses a loopback IP literal without connecting', async () => {
    const r = await fetchWith({}, `http://127.0.0.1:${site.port}/`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Refused to fetch http:\/\/127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address/);
    expect(site.requests).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback (localhost) without connecting', async () => {
    const r = await fetchWith({}, `http://localhost:${site.port}/`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/localhost resolves to .* is a loopback address/);
    expect(site.requests).toHaveLength(0);
  });

  it('refuses an IPv4-mapped IPv6 loopback address', async () => {
    const r = await fetchWith({}, `http://[::ffff:127.0.0.1]:${site.port}/`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/127\.0\.0\.1 is a loopback address/);
  });

  it('refuses the unspecified address', async () => {
    const r = await fetchWith({}, `http://0.0.0.0:${site.port}/`);
    expect(r.text).toMatch(/0\.0\.0\.0 is the unspecified address/);
  });

  it('refuses a name when any of its answers is off limits (DNS rebinding mixes allowed and internal answers)', async () => {
    // 127.0.0.2 stands in for an allowed address, so a broken check could only ever reach loopback.
    let lookups = 0;
    const resolveHost = async () => {
      lookups++;
      return [
        { address: '127.0.0.2', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ];
    };
    const r = await fetchWith({ resolveHost, allowedHosts: ['127.0.0.2/32'] }, `http://rebind.test:${site.port}/`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/rebind\.test resolves to 127\.0\.0\.1 is a loopback address/);
    expect(lookups).toBe(1);
    expect(site.requests).toHaveLength(0);
  });

  it('refuses schemes other than http and https, and text that is not a URL', async () => {
    expect((await fetchWith({}, 'file:///etc/passwd')).text).toMatch(
      /Only http and https URLs can be fetched; got file:/,
    );
    expect((await fetchWith({}, 'ftp://example.com/')).text).toMatch(/got ftp:/);
    expect((await fetchWith({}, 'not a url')).text).toMatch(/is not a valid URL/);
  });
});

describe('web_fetch when the operator allows more', () => {
  it('fetches from loopback with allowPrivateNetwork', async () => {
    const r = await fetchWith({ allowPrivateNetwork: true }, `http://127.0.0.1:${site.port}/`);
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^HTTP 200 OK · text\/plain; charset=utf-8/);
    expect(r.text).toMatch(/hello from 127\.0\.0\.1:\d+$/);
  });

  it('connects to the address it checked, resolving the name once', async () => {
    let lookups = 0;
    const resolveHost = async (host: string) => {
      lookups++;
      expect(host).toBe('app.test');
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const r = await fetchWith({ resolveHost, allowedHosts: ['127.0.0.0/8'] }, `http://app.test:${site.port}/`);
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/hello from app\.test:\d+$/);
    expect(lookups).toBe(1);
  });

  it('fetches from a host named in allowedHosts', async () => {
    const r = await fetchWith({ allowedHosts: ['localhost'] }, `http://localhost:${site.port}/`);
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/hello from localhost:\d+$/);
  });

  it('refuses a redirect from an allowed host to loopback, and never reaches the target', async () => {
    const r = await fetchWith({ allowedHosts: ['localhost'] }, `http://localhost:${site.port}/to-other`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Refused to fetch http:\/\/127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address/);
    expect(site.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it('follows redirects within what is allowed and says where it went', async () => {
    const r = await fetchWith({ allowPrivateNetwork: true }, `http://127.0.0.1:${site.port}/hop`);
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/URL: http:\/\/127\.0\.0\.1:\d+\/hello\nredirected: 307 http:\/\/127\.0\.0\.1:\d+\/hop/);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const r = await fetchWith({ allowPrivateNetwork: true }, `http://127.0.0.1:${site.port}/to-file`);
    expect(r.text).toMatch(/got file: \(redirected from http:\/\/127\.0\.0\.1:\d+\/to-file\)/);
  });

  it('stops after the redirect cap', async () => {
    const r = await fetchWith(
      { allowPrivateNetwork: true, limits: { maxRedirects: 3 } },
      `http://127.0.0.1:${site.port}/loop`,
    );
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Too many redirects \(more than 3\)/);
    expect(site.requests).toHaveLength(4);
  });

  it('cuts the body at the size limit and says so', async () => {
    const r = await fetchWith(
      { allowPrivateNetwork: true, limits: { maxFetchBytes: 1000 } },
      `http://127.0.0.1:${site.port}/big`,
    );
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/1000 B \(truncated\)/);
    expect(r.text).toMatch(/\n\ny{1000}\n\[body truncated\]$/);
  });

  it('gives up at the time limit', async () => {
    const r = await fetchWith(
      { allowPrivateNetwork: true, limits: { fetchTimeoutMs: 300 } },
      `http://127.0.0.1:${site.port}/hang`,
    );
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/timed out/);
  });

  it('refuses binary content', async () => {
    const r = await fetchWith({ allowPrivateNetwork: true }, `http://127.0.0.1:${site.port}/png`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/returned binary content \(image\/png\)/);
  });
});
