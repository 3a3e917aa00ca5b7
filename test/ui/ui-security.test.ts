/**
 * `candor ui`'s walls: the API refuses requests without the
 * per-launch token, from another Origin or to another Host; the console page
 * may not be framed at all, and the sandbox proxy only by the console's origin
 * (checked in Chromium with a real framing attempt from a third origin); the
 * View gate decides on the Node side even when no browser is involved.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenMatches } from '../../src/ui/server/security.js';
import { ensureUiBuilt, launchChromium, startUi, type UiProcess } from '../support/ui-support.js';

let ui: UiProcess;
let sandboxOrigin: string;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so Host and Origin are exactly what the test says. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...options.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  ensureUiBuilt();
  ui = await startUi(['--example', 'notes-app']);
  const state = await send(`${ui.origin}/api/state`, { headers: { 'X-Candor-Token': ui.token } });
  sandboxOrigin = (JSON.parse(state.body) as { sandboxOrigin: string }).sandboxOrigin;
}, 60_000);

afterAll(async () => {
  await ui?.stop();
});

describe('candor ui API checks', () => {
  it('refuses a request without the token, or with a wrong one', async () => {
    expect((await send(`${ui.origin}/api/state`)).status).toBe(401);
    const wrong = ui.token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    const reply = await send(`${ui.origin}/api/state`, { headers: { 'X-Candor-Token': wrong } });
    expect(reply.status).toBe(401);
    expect(reply.body).toContain('token');
  });

  it('refuses another Origin even with the token', async () => {
    const reply = await send(`${ui.origin}/api/tools`, {
      headers: { 'X-Candor-Token': ui.token, Origin: 'http://evil.example' },
    });
    expect(reply.status).toBe(403);
    const fromSandbox = await send(`${ui.origin}/api/tools`, {
      headers: { 'X-Candor-Token': ui.token, Origin: sandboxOrigin },
    });
    expect(fromSandbox.status).toBe(403);
  });

  it('refuses a Host that is not its loopback address (DNS rebinding)', async () => {
    const port = new URL(ui.origin).port;
    const reply = await send(`${ui.origin}/api/state`, {
      headers: { 'X-Candor-Token': ui.token, Host: `rebind.example:${port}` },
    });
    expect(reply.status).toBe(421);
    expect((await send(`${ui.origin}/`, { headers: { Host: `rebind.example:${port}` } })).status).toBe(421);
    expect((await send(`${sandboxOrigin}/sandbox.html`, { headers: { Host: 'rebind.example' } })).status).toBe(421);
  });

  it('refuses a state-changing request that carries no Origin', async () => {
    const reply = await send(`${ui.origin}/api/confirm`, {
      method: 'POST',
      headers: { 'X-Candor-Token': ui.token },
      body: { id: 'x', answer: 'allow-once' },
    });
    expect(reply.status).toBe(403);
  });

  it('answers the console page itself with the token and Origin', async () => {
    const reply = await send(`${ui.origin}/api/state`, { headers: { 'X-Candor-Token': ui.token, Origin: ui.origin } });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({
      policy: 'default',
      servers: [{ name: 'notes', status: 'connected' }],
    });
  });

  it('compares tokens in constant time and never matches a prefix', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('ab', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
  });
});

describe('candor ui View gate without a browser', () => {
  const post = (path: string, body: unknown) =>
    send(`${ui.origin}${path}`, {
      method: 'POST',
      headers: { 'X-Candor-Token': ui.token, Origin: ui.origin },
      body,
    });

  it('binds a View to its server and refuses model-only tools and unknown View ids', async () => {
    const opened = JSON.parse((await post('/api/views', { tool: 'notes__list_notes' })).body) as {
      viewId: string;
      server: string;
      policy: string;
    };
    expect(opened.server).toBe('notes');
    expect(opened.policy).toContain("connect-src 'none'");
    const model = await post('/api/views/call', { viewId: opened.viewId, name: 'delete_note', args: { id: 1 } });
    expect(model.status).toBe(403);
    expect(model.body).toContain('not for apps');
    const unknown = await post('/api/views/call', { viewId: 'made-up', name: 'add_note', args: { text: 'x' } });
    expect(unknown.status).toBe(403);
    // A call that needs a person, with no console page open to ask: denied at once, never left hanging.
    const unasked = JSON.parse(
      (await post('/api/views/call', { viewId: opened.viewId, name: 'add_note', args: { text: 'x' } })).body,
    ) as { status: string };
    expect(unasked.status).toBe('denied');
  });
});

describe('candor ui framing', () => {
  let browser: Browser;
  let third: Server;

  beforeAll(async () => {
    browser = await launchChromium();
    third = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end(
        `<!doctype html><iframe id="sandbox" src="${sandboxOrigin}/sandbox.html"></iframe><iframe id="console" src="${ui.origin}/"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => third.listen(0, '127.0.0.1', resolve));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => third?.close(resolve));
  });

  it('sends frame-ancestors for the console origin only on the sandbox page, and none on the console', async () => {
    const sandbox = await send(`${sandboxOrigin}/sandbox.html`);
    expect(sandbox.headers['content-security-policy']).toBe(`frame-ancestors ${ui.origin}`);
    const page = await send(`${ui.origin}/`);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).toContain(`frame-src ${sandboxOrigin}`);
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('refuses to be framed by a page of another origin (Chromium)', async () => {
    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors|Refused to (frame|display)/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`http://127.0.0.1:${(third.address() as AddressInfo).port}/`);
    await expect.poll(() => blocked.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    for (const frame of page.frames().slice(1)) {
      const mark = await frame
        .evaluate(() => document.querySelector('meta[name="candor-console-origin"], #tools') !== null)
        .catch(() => false);
      expect(mark, frame.url()).toBe(false);
    }
    await page.close();
  });
});
