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
