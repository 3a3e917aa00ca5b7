/**
 * `candor ui` as an MCP Apps host, in a real browser: the notes
 * example's View renders through the sandbox proxy on a second origin, its
 * button's app-only call runs (after the person allows it in the console's
 * dialog), and the Node side refuses what a View may not do: call a model-only
 * tool, call another server's tool, or reach an origin its CSP did not declare.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUiBuilt, launchChromium, screenshotPath, startUi, type UiProcess } from '../support/ui-support.js';

let dir: string;
let ui: UiProcess;
let browser: Browser;
let page: Page;
let view: Frame;
let bystander: Server;
let bystanderHits = 0;

beforeAll(async () => {
  ensureUiBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-ui-apps-'));
  mkdirSync(path.join(dir, 'root'));
  writeFileSync(path.join(dir, 'root', 'a.txt'), 'a\n');
  bystander = createServer((_request, response) => {
    bystanderHits++;
    response.writeHead(200, { 'Access-Control-Allow-Origin': '*' }).end('reached');
  });
  await new Promise<void>((resolve) => bystander.listen(0, '127.0.0.1', resolve));
  [ui, browser] = await Promise.all([
    startUi(['--example', 'notes-app', '--example', 'workspace', '--root', path.join(dir, 'root')]),
    launchChromium(),
  ]);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(ui.url);
  await page.waitForSelector('body[data-ready="true"]');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  await new Promise((resolve) => bystander?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Ask the View to call a tool through its own JSON-RPC client (window.callTool of the notes View). */
const viewCall = (name: string, args: Record<string, unknown> = {}) =>
  view.evaluate(
    ([n, a]) =>
      (window as unknown as { callTool(n: string, a: unknown): Promise<unknown> }).callTool(n as string, a).then(
        (result) => ({ ran: true, result }),
        (error: Error) => ({ ran: false, message: error.message }),
      ),
    [name, args] as const,
  );

describe('candor ui hosting an MCP App', () => {
  it('renders the View of list_notes through the sandbox proxy on another origin', async () => {
    await page.click('[data-tool="notes__list_notes"] [data-action="call"]');
    const frameElement = await page.waitForSelector('iframe[data-view="notes__list_notes"]');
    const proxy = (await frameElement.contentFrame())!;
    // The proxy navigates from about:blank to the sandbox origin; wait for it rather than race it.
    await expect.poll(() => proxy.url(), { timeout: 10_000 }).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\.html$/);
    expect(new URL(proxy.url()).origin).not.toBe(ui.origin);
    await expect.poll(() => proxy.childFrames().length, { timeout: 10_000 }).toBe(1);
    view = proxy.childFrames()[0]!;
    const inner = await proxy.$('iframe');
    expect(await inner!.getAttribute('sandbox')).toBe('allow-scripts');
    await view.waitForSelector('li[data-note="1"]');
    // The tool result reached the View (handshake, tool-input, tool-result).
    expect(await view.locator('li[data-note]').count()).toBe(2);
    // The View's size change was honoured by the host.
    await expect.poll(() => frameElement.evaluate((f) => (f as HTMLIFrameElement).style.height)).toMatch(/px$/);
  });

  it("runs the View button's app-only call after the person allows it outside the iframe", async () => {
    await view.fill('#text', 'Written by the View');
    await view.click('#add');
    const dialog = page.locator('dialog[data-dialog="confirm"]');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('A View of notes asks for this call.');
    expect(await dialog.textContent()).toContain('notes__add_note');
    await dialog.locator('[data-answer="allow"]').click();
    await view.waitForSelector('li[data-note="3"]');
    expect(await view.locator('li[data-note="3"]').textContent()).toContain('Written by the View');
    await page
      .locator('.view-card')
      .first()
      .screenshot({ path: screenshotPath('ui-view.png') });
  });

  it('refuses a View calling a model-only tool, and the note stays', async () => {
    const outcome = await viewCall('delete_note', { id: 1 });
    expect(outcome).toMatchObject({ ran: false });
    expect((outcome as { message: string }).message).toMatch(/not for apps/);
    expect(await view.locator('li[data-note="1"]').count()).toBe(1);
    expect(await page.locator('#session').textContent()).toContain('notes__delete_note is not for apps');
  });

  it("refuses a View calling another server's tool, by bare or namespaced name", async () => {
    for (const name of ['read_file', 'workspace__read_file', '../workspace__read_file']) {
      const outcome = await viewCall(name, { path: 'a.txt' });
      expect(outcome, name).toMatchObject({ ran: false });
      expect((outcome as { message: string }).message).toMatch(/may call only notes's tools/);
    }
  });

  it("blocks the View's fetch() to an origin its CSP did not declare", async () => {
    const target = `http://127.0.0.1:${(bystander.address() as AddressInfo).port}/steal`;
    const verdict = await view.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(`blocked by ${e.effectiveDirective}`), {
            once: true,
          });
          fetch(url).then(
            () => resolve('reached'),
            () => undefined,
          );
          setTimeout(() => resolve('no verdict'), 5_000);
        }),
      target,
    );
    expect(verdict).toBe('blocked by connect-src');
    expect(bystanderHits).toBe(0);
  });

  it('opens only http(s) links, and only after the person confirms; messages are shown, not sent', async () => {
    const rpc = (id: number, method: string, params: unknown) =>
      view.evaluate(
        ([i, m, p]) =>
          new Promise<unknown>((resolve) => {
            window.addEventListener('message', function reply(event) {
              const data = event.data as { id?: unknown; result?: unknown; error?: { message: string } };
              if (data?.id !== i) return;
              window.removeEventListener('message', reply);
              resolve(data.error ? { error: data.error.message } : data.result);
            });
            window.parent.postMessage({ jsonrpc: '2.0', id: i, method: m, params: p }, '*');
          }),
        [id, method, params] as const,
      );
    expect(await rpc(9001, 'ui/open-link', { url: 'javascript:alert(1)' })).toMatchObject({ isError: true });
    const asked = rpc(9002, 'ui/open-link', { url: 'https://example.com/notes' });
    const dialog = page.locator('dialog[data-dialog="open-link"]');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('https://example.com/notes');
    await dialog.locator('[data-answer="deny"]').click();
    expect(await asked).toMatchObject({ isError: true });
    expect(await rpc(9003, 'ui/message', { role: 'user', content: [{ type: 'text', text: 'hello model' }] })).toEqual(
      {},
    );
    await expect.poll(() => page.locator('.view-notes').first().textContent()).toContain('hello model');
    expect(await page.locator('#session').textContent()).toContain('ui/message (shown, not sent)');
    // What the bridge has no handler for is refused, not forwarded: there is no client behind it.
    expect(await rpc(9004, 'resources/read', { uri: 'ui://notes/view' })).toHaveProperty('error');
  });

  it("hands the View the person's colour scheme, and the change when it flips", async () => {
    const dark = await browser.newPage({ viewport: { width: 1200, height: 800 }, colorScheme: 'dark' });
    try {
      await dark.goto(ui.url);
      await dark.waitForSelector('body[data-ready="true"]');
      await dark.click('[data-tool="notes__list_notes"] [data-action="call"]');
      const proxy = (await (await dark.waitForSelector('iframe[data-view="notes__list_notes"]')).contentFrame())!;
      await expect.poll(() => proxy.childFrames().length, { timeout: 10_000 }).toBe(1);
      const themed = proxy.childFrames()[0]!;
      await themed.waitForSelector('li[data-note]');
      const theme = () => themed.evaluate(() => document.documentElement.dataset.theme ?? 'none');
      // From ui/initialize's hostContext…
      expect(await theme()).toBe('dark');
      // …and from ui/notifications/host-context-changed when the system scheme changes.
      await dark.emulateMedia({ colorScheme: 'light' });
      await expect.poll(theme).toBe('light');
      await dark.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(theme).toBe('dark');
    } finally {
      await dark.close();
    }
  });

  it('does not let a person call an app-only tool from the console', async () => {
    expect(await page.locator('[data-tool="notes__add_note"] [data-action="call"]').isDisabled()).toBe(true);
    const status = await page.evaluate(async (token) => {
      const response = await fetch('/api/call', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Candor-Token': token },
        body: JSON.stringify({ tool: 'notes__add_note', args: { text: 'x' } }),
      });
      return response.status;
    }, ui.token);
    expect(status).toBe(403);
  });
});
