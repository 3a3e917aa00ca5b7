/**
 * `candor ui --protocol`: the console speaks 2026-07-28 to a server that speaks only
 * that era by default (auto), and shows the era it spoke; held to 2025-11-25, the
 * server is shown failed with a reason naming both eras, and the console keeps running.
 */
import { afterEach, beforeAll, expect, test } from 'vitest';
import { ensureUiBuilt, startUi, type UiProcess } from '../support/ui-support.js';

const MODERN_ONLY = ['--', process.execPath, 'test/fixtures/one-tool-server.mjs', 'json', 'modern-only'];
let ui: UiProcess | undefined;

beforeAll(() => ensureUiBuilt());
afterEach(async () => {
  await ui?.stop();
  ui = undefined;
});

async function stateOf(args: string[]) {
  ui = await startUi([...args, ...MODERN_ONLY]);
  const reply = await fetch(`${ui.origin}/api/state`, { headers: { 'X-Candor-Token': ui.token } });
  return (await reply.json()) as { servers: Array<Record<string, unknown>> };
}

test('with no --protocol the console speaks 2026-07-28 to a server that speaks only that era', async () => {
  const { servers } = await stateOf([]);
  expect(servers[0]).toMatchObject({ status: 'connected', tools: 1, protocolVersion: '2026-07-28' });
});

test('--protocol 2026-07-28 holds it to that era', async () => {
  const { servers } = await stateOf(['--protocol', '2026-07-28']);
  expect(servers[0]).toMatchObject({ status: 'connected', era: 'modern', protocolVersion: '2026-07-28' });
});

test('--protocol 2025-11-25 shows the server failed with a reason naming both eras', async () => {
  const { servers } = await stateOf(['--protocol', '2025-11-25']);
  expect(servers[0]).toMatchObject({ status: 'failed', tools: 0 });
  expect(String(servers[0]?.error)).toContain('2026-07-28');
  expect(String(servers[0]?.error)).toContain('2025-11-25');
});

test('an unknown --protocol is a usage error', async () => {
  await expect(startUi(['--protocol', '2024-11-05', ...MODERN_ONLY])).rejects.toThrow(/2025-11-25, 2026-07-28 or auto/);
});
