/**
 * The page double with a real browser server in the real sandbox: Debian Chromium (via
 * playwright-core) inside bwrap opens candor's local page through the loopback route,
 * the witness records navigations and form submissions, and a read-only tool that
 * submits the order form is caught while its reading twins are not.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPageDouble } from '../../src/observe/doubles/page.js';
import type { StartedDouble } from '../../src/observe/doubles/types.js';
import { judgeRequests } from '../../src/observe/request-rules.js';
import { sandboxWithDoubles } from '../support/double-sandbox.js';
import { installServer } from '../support/npm-servers.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/observe/browser-server.mjs', import.meta.url));
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const WRITER = { ...READ_ONLY, readOnlyHint: false, idempotentHint: false };

describe('the page double with a browser server in the sandbox', () => {
  let page: StartedDouble;
  let boxed: Awaited<ReturnType<typeof sandboxWithDoubles>>;

  beforeAll(async () => {
    page = await startPageDouble({ dir: await mkdtemp(path.join(tmpdir(), 'candor-page-double-')) });
    boxed = await sandboxWithDoubles({ name: 'browser', command: process.execPath, args: [FIXTURE], doubles: [page] });
  }, 60_000);

  afterAll(async () => {
    await boxed?.close();
    await page?.stop();
  });

  it('lets a read-only tool read the table, recording the navigation only', async () => {
    const call = await boxed.call('read_table', { url: page.values.url });
    expect(call.isError, `${call.text}\n${boxed.stderr()}`).toBe(false);
    expect(call.text).toContain('Blue notebook');
    expect(call.changes).toEqual([{ kind: 'page', action: 'navigate', path: '/', method: 'GET' }]);
    expect(judgeRequests('read_table', READ_ONLY, call.changes)).toEqual([]);
  }, 60_000);

  it('holds nothing against a search form that sends GET', async () => {
    const call = await boxed.call('search', { url: page.values.url });
    expect(call.isError, call.text).toBe(false);
    expect(call.text).toContain('Red pencil');
    expect(call.changes).toContainEqual({ kind: 'page', action: 'submit', path: '/search', method: 'GET' });
    expect(judgeRequests('search', READ_ONLY, call.changes)).toEqual([]);
  }, 60_000);

  it('catches a read-only tool that submits the order form, and never records what was typed', async () => {
    const call = await boxed.call('fill_form', { url: page.values.url });
    expect(call.isError, call.text).toBe(false);
    expect(call.text).toContain('order 1001 is placed');
    expect(call.changes).toEqual([
      { kind: 'page', action: 'navigate', path: '/order', method: 'GET' },
      { kind: 'page', action: 'submit', path: '/order', method: 'POST' },
    ]);
    expect(JSON.stringify(call.changes)).not.toContain('someone');
    const findings = judgeRequests('fill_form', READ_ONLY, call.changes);
    expect(findings.map((f) => [f.ruleId, f.severity])).toEqual([['observe/read-only-sent-write', 'error']]);
  }, 60_000);

  it('holds nothing against a tool that says it writes and submits', async () => {
    const call = await boxed.call('place_order', { url: page.values.url });
    expect(call.isError, call.text).toBe(false);
    expect(judgeRequests('place_order', WRITER, call.changes)).toEqual([]);
  }, 60_000);
});

describe('the page double with @playwright/mcp 0.0.83 in the sandbox', () => {
  let page: StartedDouble;
  let boxed: Awaited<ReturnType<typeof sandboxWithDoubles>>;

  beforeAll(async () => {
    const bin = installServer('playwright');
    page = await startPageDouble({ dir: await mkdtemp(path.join(tmpdir(), 'candor-page-playwright-')) });
    boxed = await sandboxWithDoubles({
      name: 'playwright',
      command: bin,
      args: [
        '--headless',
        '--browser',
        'chromium',
        '--executable-path',
        '/usr/bin/chromium',
        '--no-sandbox',
        '--isolated',
      ],
      doubles: [page],
    });
  }, 15 * 60_000);

  afterAll(async () => {
    await boxed?.close();
    await page?.stop();
  });

  it('records the real server navigating, and its form submission with the tool that did it', async () => {
    const { tools } = await boxed.client.listTools();
    const hintsOf = (name: string) => {
      const a = tools.find((t) => t.name === name)!.annotations ?? {};
      return {
        readOnlyHint: a.readOnlyHint ?? false,
        destructiveHint: a.destructiveHint ?? true,
        idempotentHint: a.idempotentHint ?? false,
        openWorldHint: a.openWorldHint ?? true,
      };
    };
    const navigate = await boxed.call('browser_navigate', { url: `${page.values.url}order` });
    expect(navigate.isError, `${navigate.text}\n${boxed.stderr()}`).toBe(false);
    expect(navigate.changes).toEqual([{ kind: 'page', action: 'navigate', path: '/order', method: 'GET' }]);
    expect(judgeRequests('browser_navigate', hintsOf('browser_navigate'), navigate.changes)).toEqual([]);
    // The snapshot names each element with a ref; the email field's is the one to type into.
    const snapshot = await boxed.call('browser_snapshot');
    expect(snapshot.changes).toEqual([]);
    const ref = /textbox "Email" \[ref=(e\d+)\]/.exec(snapshot.text)?.[1];
    expect(ref, snapshot.text).toBeDefined();
    const typed = await boxed.call('browser_type', {
      element: 'Email',
      target: ref,
      text: 'someone@example.com',
      submit: true,
    });
    expect(typed.isError, typed.text).toBe(false);
    expect(typed.changes).toContainEqual({ kind: 'page', action: 'submit', path: '/order', method: 'POST' });
    expect(JSON.stringify(typed.changes)).not.toContain('someone');
    // browser_type says it may write, so submitting is no contradiction.
    expect(hintsOf('browser_type').readOnlyHint).toBe(false);
    expect(judgeRequests('browser_type', hintsOf('browser_type'), typed.changes)).toEqual([]);
  }, 120_000);
});
