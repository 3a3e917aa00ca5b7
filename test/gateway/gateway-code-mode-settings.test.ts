/**
 * Code mode's settings, end to end: script limits in the config file (the gateway's and a
 * profile's own) are checked with the key and the allowed range named, and hold over the
 * wire; the stored scripts' file is read at start (a broken one stops the gateway, and is
 * left as it was), followed while the gateway runs (a person's edit is listed at once; a
 * broken edit keeps the scripts in force and refuses saves), and a stored script whose
 * calls cannot be read from its text is listed as the most dangerous it could be.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, parseGatewayConfig } from '../../src/gateway/index.js';
import { ensureBuilt } from '../support/cli-harness.js';
import { allowScript, codeModeWire, ranCalls } from '../support/code-mode-wire.js';

const wire = codeModeWire('code-settings');
const fixture = join(import.meta.dirname, '../fixtures/gateway/script-upstream.mjs');
beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => wire.close());

const servers = { items: { command: process.execPath, args: [fixture] } };
let files = 0;
const scriptsFile = (content: string) => {
  const file = join(wire.dir, `scripts-${++files}.json`);
  writeFileSync(file, content);
  return file;
};

describe('script limits in the config file', () => {
  test('a limit out of range or misspelt is refused, naming the key and the range, with every mistake at once', () => {
    const file = join(wire.dir, 'candor.gateway.json');
    let error: unknown;
    try {
      parseGatewayConfig(
        {
          servers,
          codeMode: { cpuMs: 0, maxcalls: 5, memoryBytes: 'big' },
          profiles: { ci: { toolList: 'code', codeMode: { deadlineMs: 10_000_000, outputBytes: 4096 } } },
        },
        file,
      );
    } catch (caught) {
      error = caught;
    }
    expect((error as Error).message).toBe(
      [
        `${file}: 4 problems:`,
        '  codeMode.cpuMs: must be a whole number from 10 to 600000 (ms); got 0.',
        '  codeMode.maxcalls: unknown key; did you mean "maxCalls"? Expected one of memoryBytes, stackBytes, cpuMs, deadlineMs, outputBytes, maxCalls.',
        '  codeMode.memoryBytes: must be a whole number from 1048576 to 1073741824 (bytes); got "big".',
        '  profiles.ci.codeMode.deadlineMs: must be a whole number from 100 to 3600000 (ms); got 10000000.',
      ].join('\n'),
    );
  });

  test('valid limits are read, a profile keeping its own', () => {
    const options = parseGatewayConfig(
      {
        servers,
        codeMode: { cpuMs: 500 },
        scripts: 'my-scripts.json',
        profiles: { ci: { toolList: 'code', codeMode: { maxCalls: 3 } } },
      },
      join(wire.dir, 'candor.gateway.json'),
    );
    expect(options.codeMode).toEqual({ cpuMs: 500 });
    expect(options.profiles?.ci?.codeMode).toEqual({ maxCalls: 3 });
    expect(options.scripts).toBe(join(wire.dir, 'my-scripts.json'));
  });

  test('createGateway refuses limits out of range before any upstream starts', async () => {
    await expect(
      createGateway({ servers, toolList: 'code', profiles: { ci: { codeMode: { maxCalls: 0 } } } }),
    ).rejects.toThrow('profiles.ci.codeMode.maxCalls must be a whole number from 1 to 10000 (calls); got 0.');
  });

  test("over the wire, a profile's own limit holds on its endpoint and not on the others", async () => {
    const { url, log } = await wire.startGateway({
      fixture,
      server: 'items',
      profiles: { code: { toolList: 'code' }, tight: { toolList: 'code', codeMode: { maxCalls: 2 } } },
    });
    const code = `const out = [];
      for (let i = 0; i < 3; i++) { try { await tools.items__read_items({}); out.push('ok'); } catch (e) { out.push(e.message); } }
      return out;`;
    const tight = await wire.connect('v2', url.replace(/\/code$/, '/tight'));
    expect(JSON.parse((await tight.callTool('run_script', { code })).text)).toEqual([
      'ok',
      'ok',
      'at most 2 tool calls per script',
    ]);
    const roomy = await wire.connect('v1', url);
    expect(JSON.parse((await roomy.callTool('run_script', { code })).text)).toEqual(['ok', 'ok', 'ok']);
    expect(ranCalls(log)).toHaveLength(5);
  });
});

describe('the stored scripts file', () => {
  test('a broken file stops the gateway at start, naming each mistake, and is left as it was', async () => {
    const text = '{ "scripts": { "a b": { "code": "return 1;" }, "ok": { "description": "x", "code": 7 } } }\n';
    const file = scriptsFile(text);
    await expect(createGateway({ servers, toolList: 'code', scripts: file })).rejects.toThrow(
      `${file}: 2 problems:\n  scripts.a b: A stored script's name starts with a letter`,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  test("a person's edit is listed at once; a broken edit keeps the scripts in force and refuses saves", async () => {
    const file = scriptsFile(JSON.stringify({ scripts: {} }));
    const { url, gateway } = await wire.startGateway({ fixture, server: 'items', scripts: file });
    const client = await wire.connect('v2', url, allowScript);
    await wire.streamsOpen(gateway, 'code');
    const changed = client.nextListChanged();
    writeFileSync(
      file,
      JSON.stringify({
        scripts: { items: { description: 'The items.', code: 'return tools.items__read_items({});' } },
      }),
    );
    await changed;
    expect((await client.listTools()).map((t) => t.name)).toContain('items');
    expect((await client.callTool('items')).text).toBe('"apple, pear"');
    const broken = '{ "scripts": { "items": ';
    writeFileSync(file, broken);
    const saved = await client.callTool('save_script', { name: 'other', description: 'x', code: 'return 1;' });
    expect(saved.isError).toBe(true);
    expect(saved.text).toContain('cannot be read, so nothing is saved until a person fixes it');
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect((await client.callTool('items')).text).toBe('"apple, pear"');
  });
});

describe('stored scripts whose calls cannot be read', () => {
  test('a script reaching tools by computed names is listed as the most dangerous it could be', async () => {
    const file = scriptsFile(
      JSON.stringify({
        scripts: {
          any_tool: {
            description: 'Call a tool by name.',
            code: 'const name = "items__read_items"; return tools[name]({});',
          },
          hidden: {
            description: 'Reads, and tries to reach the delete without naming it.',
            code: 'const t = globalThis["to" + "ols"]; const r = await tools.items__read_items({}); return [r, typeof t["items__" + "delete_items"]];',
          },
        },
      }),
    );
    const { url, log } = await wire.startGateway({ fixture, server: 'items', scripts: file });
    const client = await wire.connect('v2-2026', url, allowScript);
    const tools = await client.listTools();
    const anyTool = tools.find((t) => t.name === 'any_tool')!;
    expect(anyTool.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(anyTool.description).toContain('listed as the most dangerous it could be');
    // Its text names only a read, so it is offered only that read: the delete is not in its tools at all.
    const hidden = tools.find((t) => t.name === 'hidden')!;
    expect(hidden.annotations).toMatchObject({ readOnlyHint: true });
    expect(JSON.parse((await client.callTool('hidden')).text)).toEqual(['apple, pear', 'undefined']);
    expect(client.asked).toEqual([]);
    expect(ranCalls(log)).toEqual(['read_items']);
  });
});
