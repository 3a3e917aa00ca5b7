/**
 * Stored scripts over the wire, with SDK v1 and v2 clients in both eras: a script a
 * person stored in the scripts file, or the model saved with save_script, is listed as a
 * tool whose hints are derived from the tools it calls. A read-only one runs without a
 * question; one that calls a destructive tool is listed destructive and asks once; when
 * a tool underneath changes, the stored script's hints and pin change and the client is
 * told its list changed. Inside a script the person allowed, a call the taint rule asks
 * about because untrusted content came in after the allow is asked about again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt } from '../support/cli-harness.js';
import { allowScript, codeModeWire, denyScript, ranCalls, type WireClient } from '../support/code-mode-wire.js';

const wire = codeModeWire('stored-scripts');
const fixture = join(import.meta.dirname, '../fixtures/gateway/script-upstream.mjs');
beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => wire.close());

let files = 0;
/** A scripts file a person wrote, and a gateway reading it. */
async function startWith(scripts: Record<string, { description: string; code: string | string[] }>, extra = {}) {
  const file = join(wire.dir, `scripts-${++files}.json`);
  writeFileSync(file, `${JSON.stringify({ scripts })}\n`);
  const started = await wire.startGateway({ fixture, server: 'items', scripts: file, ...extra });
  return { ...started, file };
}

const listed = async (client: WireClient, name: string) => {
  const tool = (await client.listTools()).find((t) => t.name === name);
  if (tool === undefined) throw new Error(`${name} is not listed`);
  return tool;
};
/** What the gateway says of a stored script under `_meta["dev.candor/gateway"]`. */
const scriptMeta = (tool: { _meta?: Record<string, unknown> }) => {
  const meta: Record<string, unknown> = tool._meta ?? {};
  return meta['dev.candor/gateway'] as {
    pinHash: string;
    storedScript: { calls: Array<{ tool: string; pin: string }> };
  };
};

const READ_ONLY = { hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } };

describe.each(['v1', 'v2', 'v2-2026'] as const)('stored scripts with an SDK %s client', (kind) => {
  test('a stored read-only script is listed read-only and runs without a question', async () => {
    const { url, log, audit } = await startWith({
      read_twice: {
        description: 'Read the items twice.',
        code: [
          'const a = await tools.items__read_items({});',
          'const b = await tools.items__read_items({});',
          'return [a, b];',
        ],
      },
    });
    const client = await wire.connect(kind, url, allowScript);
    const tool = await listed(client, 'read_twice');
    expect(tool.annotations).toMatchObject(READ_ONLY.hints);
    expect(tool.description).toContain('Read the items twice.');
    expect(tool.description).toContain('It calls items__read_items [read-only, closed world]');
    const result = await client.callTool('read_twice');
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(result.text)).toEqual(['apple, pear', 'apple, pear']);
    expect(client.asked).toEqual([]);
    expect(ranCalls(log)).toEqual(['read_items', 'read_items']);
    const run = audit.find((e) => e.tool === 'read_twice')!;
    expect(run).toMatchObject({ decision: 'allow', outcome: 'ok' });
    expect(run.calls?.map((c) => c.tool)).toEqual(['items__read_items', 'items__read_items']);
  });

  test('a script the model saves that calls a destructive tool is listed destructive and asks once', async () => {
    const { url, log, file, gateway } = await startWith({});
    const client = await wire.connect(kind, url, allowScript);
    if (kind !== 'v2-2026') await wire.streamsOpen(gateway, 'code');
    const changed = client.nextListChanged();
    const saved = await client.callTool('save_script', {
      name: 'clear_all',
      description: 'Read the items, then delete them.',
      code: 'const before = await tools.items__read_items({});\nawait tools.items__delete_items({});\nreturn before;',
    });
    expect(saved.text).toContain('listed as the tool clear_all [writes (destructive)]');
    await changed;
    const tool = await listed(client, 'clear_all');
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    // Kept in the file, as the model saved it; a second save under the name replaces nothing.
    expect(JSON.parse(readFileSync(file, 'utf8')).scripts.clear_all).toMatchObject({ savedBy: 'model' });
    const again = await client.callTool('save_script', { name: 'clear_all', description: 'x', code: 'return 1;' });
    expect(again.isError).toBe(true);
    expect(again.text).toContain('exists already');
    const result = await client.callTool('clear_all');
    expect(result.text).toBe('"apple, pear"');
    expect(client.asked).toHaveLength(1);
    expect(client.asked[0]).toContain('a script wants to run items__delete_items');
    // 2026-07-28: the question ends the round, and the run starts again with the answer.
    expect(ranCalls(log)).toEqual(
      kind === 'v2-2026' ? ['read_items', 'read_items', 'delete_items'] : ['read_items', 'delete_items'],
    );
  });

  test("when a tool underneath changes, the stored script's hints and pin change and the list changes", async () => {
    const { url, full, gateway } = await startWith({
      check_archive: { description: 'Look in the archive.', code: 'return await tools.items__archive({});' },
    });
    const client = await wire.connect(kind, url, allowScript);
    if (kind !== 'v2-2026') await wire.streamsOpen(gateway, 'code');
    const before = await listed(client, 'check_archive');
    expect(before.annotations).toMatchObject(READ_ONLY.hints);
    const changed = client.nextListChanged();
    const direct = await wire.connect('v2', full, { action: 'accept', content: { decision: 'allow-once' } });
    expect((await direct.callTool('items__change_archive')).text).toBe('changed');
    await changed;
    // The catalog's sync and the list_changed come from one registry change: listed again, it is new.
    const after = await listed(client, 'check_archive');
    expect(after.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(after.description).toContain('items__archive [writes (destructive), closed world]');
    expect(scriptMeta(before).pinHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(scriptMeta(before).storedScript.calls.map((c) => c.tool)).toEqual(['items__archive']);
    expect(scriptMeta(after).pinHash).not.toBe(scriptMeta(before).pinHash);
    expect(scriptMeta(after).storedScript.calls[0]!.pin).not.toBe(scriptMeta(before).storedScript.calls[0]!.pin);
  });

  test('inside an allowed script, untrusted content that arrives after the allow is asked about again', async () => {
    const code = [
      'await tools.items__delete_items({});',
      'const page = await tools.items__fetch_page({});',
      'await tools.items__delete_items({});',
      'return page.length;',
    ].join('\n');
    const { url, log } = await startWith({ clean: { description: 'Clean, read, clean.', code } });
    const allowing = await wire.connect(kind, url, allowScript);
    expect((await allowing.callTool('clean')).isError).toBeFalsy();
    expect(allowing.asked).toHaveLength(2);
    expect(allowing.asked[0]).toContain('a script wants to run items__delete_items');
    expect(allowing.asked[1]).toContain(
      'the script you allowed has since read untrusted content (the result of items__fetch_page (server items: open-world))',
    );
    expect(allowing.asked[1]).toContain('Your allow was given before that content arrived');
    const ranAllowed = ranCalls(log);
    expect(ranAllowed.slice(-3)).toEqual(['delete_items', 'fetch_page', 'delete_items']);

    // Denying the second question stops the script before the second delete.
    const denying = await wire.connect(kind, url, [allowScript, denyScript]);
    const denied = await denying.callTool('clean');
    expect(denied.isError).toBe(true);
    expect(denied.text).toBe(
      'The script failed: The person denied this script at items__delete_items; it stopped there.',
    );
    expect(denying.asked).toHaveLength(2);
    expect(ranCalls(log).slice(ranAllowed.length).slice(-2)).toEqual(['delete_items', 'fetch_page']);
  });
});
