/**
 * The workspace file tools through a real SDK v2 client and candor's engine
 * (in-memory transport, every message checked against the official schemas):
 * what each tool does, what it refuses, and the hints on the wire.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceServer } from '../../examples/workspace/index.js';
import type { CandorServer } from '../../src/server/create-server.js';
import { createWireCheck, type WireCheck } from '../support/wire-check.js';

let base: string;
let root: string;
let outside: string;
let server: CandorServer;
let client: Client;
let wire: WireCheck;

type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: any };

async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}
function text(result: Result): string {
  return result.content.map((c) => c.text ?? '').join('\n');
}
async function ok(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${text(result)}`);
  return text(result);
}
async function refused(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError, `${name} ${JSON.stringify(args)} should fail but returned: ${text(result)}`).toBe(true);
  return text(result);
}
const file = (p: string) => path.join(root, p);

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-ws-files-')));
  outside = path.join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
});

beforeEach(async () => {
  root = path.join(base, `root-${Math.random().toString(36).slice(2)}`);
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(
    file('src/app.ts'),
    'export function add(a, b) {\n  return a + b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}\n',
  );
  writeFileSync(file('src/util.ts'), '// TODO: more\nexport const one = 1;\n');
  writeFileSync(file('notes.md'), '# Notes\nTODO: write docs\n');
  writeFileSync(file('image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  symlinkSync(outside, file('escape'));
  symlinkSync(path.join(outside, 'secret.txt'), file('secret-link'));
  execFileSync('mkfifo', [file('fifo')]);
  server = createWorkspaceServer({ root, limits: { maxReadBytes: 4096, maxEntries: 50, maxGrepResults: 3 } });
  client = new Client({ name: 'workspace-test', version: '1.0.0' });
  wire = createWireCheck();
  await client.connect(wire.wrap(server.connectMemory()) as never);
});

afterEach(async () => {
  await client.close();
  await server.close();
  wire.assertClean();
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the workspace tools on the wire', () => {
  it('lists every tool with all four hints derived from its declared effects', async () => {
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(
      tools.map((t) => [
        t.name,
        [
          t.annotations?.readOnlyHint,
          t.annotations?.destructiveHint,
          t.annotations?.idempotentHint,
          t.annotations?.openWorldHint,
        ],
      ]),
    );
    expect(hints).toEqual({
      apply_patch: [false, true, false, false],
      create_directory: [false, false, true, false],
      delete_path: [false, true, true, false],
      file_info: [true, false, true, false],
      glob: [true, false, true, false],
      grep_search: [true, false, true, false],
      list_directory: [true, false, true, false],
      move_path: [false, true, false, false],
      overwrite_file: [false, true, true, false],
      read_file: [true, false, true, false],
      run_command: [false, true, false, true],
      str_replace: [false, true, false, false],
      web_fetch: [true, false, true, true],
      create_file: [false, false, true, false],
    });
    for (const tool of tools) expect(tool.title, tool.name).toBeTruthy();
  });
});

describe('read_file', () => {
  it('returns the whole file', async () => {
    expect(await ok('read_file', { path: 'src/util.ts' })).toBe('// TODO: more\nexport const one = 1;\n');
  });

  it('returns a line range and says which lines of how many', async () => {
    const out = await ok('read_file', { path: 'src/app.ts', startLine: 5, endLine: 6 });
    expect(out).toBe('export function sub(a, b) {\n  return a - b;\n[src/app.ts: lines 5-6 of 7]');
  });

  it('refuses a range past the end', async () => {
    expect(await refused('read_file', { path: 'src/app.ts', startLine: 50 })).toMatch(
      /has 7 lines; startLine 50 is past the end/,
    );
  });

  it('refuses a file over the size cap without a range, and reads a range of it by streaming', async () => {
    const big = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n');
    writeFileSync(file('big.log'), big);
    expect(await refused('read_file', { path: 'big.log' })).toMatch(
      /over the 4\.0 KiB limit; pass startLine and endLine/,
    );
    expect(await ok('read_file', { path: 'big.log', startLine: 998, endLine: 999 })).toBe(
      'line 998\nline 999\n[big.log: lines 998-999]',
    );
  });

  it('refuses a binary file with a clear message', async () => {
    expect(await refused('read_file', { path: 'image.png' })).toMatch(
      /image\.png looks like a binary file \(it contains NUL bytes\).*file_info/,
    );
  });

  it('refuses invalid arguments with the path of the problem', async () => {
    expect(await refused('read_file', { path: 'src/app.ts', startLine: 0 })).toMatch(/startLine/);
  });
});

describe('path containment through the tools', () => {
  it('refuses ".." that leaves the root', async () => {
    expect(await refused('read_file', { path: '../outside/secret.txt' })).toMatch(/outside the workspace root/);
  });

  it('refuses an absolute path outside the root', async () => {
    expect(await refused('read_file', { path: path.join(outside, 'secret.txt') })).toMatch(
      /outside the workspace root/,
    );
    expect(await refused('list_directory', { path: '/etc' })).toMatch(/outside the workspace root/);
  });

  it('refuses symbolic links that leave the root, for reading and for writing through them', async () => {
    expect(await refused('read_file', { path: 'secret-link' })).toMatch(/symbolic link that leads outside/);
    expect(await refused('read_file', { path: 'escape/secret.txt' })).toMatch(/symbolic link that leads outside/);
    expect(await refused('create_file', { path: 'escape/planted.txt', content: 'x' })).toMatch(
      /symbolic link that leads outside/,
    );
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
    expect(await refused('overwrite_file', { path: 'secret-link', content: 'x' })).toMatch(
      /symbolic link that leads outside/,
    );
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  });

  it('refuses device files and FIFOs', async () => {
    expect(await refused('read_file', { path: 'fifo' })).toMatch(/FIFO/);
    const devServer = createWorkspaceServer({ root: '/dev' });
    const devClient = new Client({ name: 'dev-test', version: '1.0.0' });
    await devClient.connect(devServer.connectMemory() as never);
    const result = (await devClient.callTool({ name: 'read_file', arguments: { path: 'zero' } })) as Result;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/character device/);
    await devClient.close();
    await devServer.close();
  });

  it('deletes a symbolic link itself, never its target outside the root', async () => {
    await ok('delete_path', { path: 'secret-link' });
    expect(existsSync(file('secret-link'))).toBe(false);
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  });

  it('refuses to delete or move the root itself', async () => {
    expect(await refused('delete_path', { path: '.', recursive: true })).toMatch(/workspace root itself/);
    expect(await refused('move_path', { from: '.', to: 'elsewhere' })).toMatch(/workspace root itself/);
  });

  it('refuses glob and grep patterns that climb out with ".."', async () => {
    expect(await refused('glob', { pattern: '../**/*.txt' })).toMatch(/contains "\.\."/);
    expect(await refused('grep_search', { pattern: 'SECRET', include: ['../outside/*'] })).toMatch(/contains "\.\."/);
  });
});

describe('list_directory, glob, file_info', () => {
  it('lists directories first, then files with sizes, hiding dot files unless asked', async () => {
    writeFileSync(file('.env.example'), 'A=1');
    const out = await ok('list_directory', { path: '.' });
    expect(out.split('\n').slice(0, 2)).toEqual(['Workspace root: 6 entries', 'src/']);
    expect(out).toMatch(/notes\.md {2}\(25 B\)/);
    expect(out).toMatch(/escape {2}\(symlink\)/);
    expect(out).not.toMatch(/\.env\.example/);
    expect(await ok('list_directory', { path: '.', includeHidden: true })).toMatch(/\.env\.example/);
  });

  it('finds files by pattern without following symbolic links out of the root', async () => {
    expect(await ok('glob', { pattern: '**/*.ts' })).toBe('src/app.ts\nsrc/util.ts');
    expect(await ok('glob', { pattern: '**/*.txt' })).toMatch(/^No paths match/);
    expect(await ok('glob', { pattern: '*.ts', path: 'src' })).toBe('src/app.ts\nsrc/util.ts');
  });

  it('describes a file and says whether it is text or binary', async () => {
    expect(await ok('file_info', { path: 'image.png' })).toMatch(/^image\.png: file \(binary\)\nsize: 12 B/);
    expect(await ok('file_info', { path: 'src' })).toMatch(/^src: directory/);
    expect(await refused('file_info', { path: 'missing.txt' })).toMatch(/Nothing exists at missing\.txt/);
  });
});

describe('grep_search', () => {
  it('finds matching lines with path and line number', async () => {
    expect(await ok('grep_search', { pattern: 'return a [+-] b' })).toBe(
      'src/app.ts:2:   return a + b;\nsrc/app.ts:6:   return a - b;',
    );
  });

  it('narrows by include and exclude globs and ignores case on request', async () => {
    expect(await ok('grep_search', { pattern: 'todo', ignoreCase: true, include: ['**/*.md'] })).toBe(
      'notes.md:2: TODO: write docs',
    );
    expect(await ok('grep_search', { pattern: 'TODO', exclude: ['**/*.md'] })).toBe('src/util.ts:1: // TODO: more');
  });

  it('stops at the result cap and says so', async () => {
    const out = await ok('grep_search', { pattern: 'e' });
    expect(out.split('\n')).toHaveLength(4);
    expect(out).toMatch(/\[stopped at 3 results/);
  });

  it('skips binary files and never reads through links that leave the root', async () => {
    expect(await ok('grep_search', { pattern: 'SECRET|PNG' })).toMatch(/^No lines match/);
  });

  it('refuses an invalid regular expression', async () => {
    expect(await refused('grep_search', { pattern: 'a(b' })).toMatch(/not a valid regular expression/);
  });
});

describe('create_file, overwrite_file, create_directory', () => {
  it('creates a file and its parent folders', async () => {
    expect(await ok('create_file', { path: 'docs/guide/intro.md', content: 'hello' })).toBe(
      'Created docs/guide/intro.md (5 B).',
    );
    expect(readFileSync(file('docs/guide/intro.md'), 'utf8')).toBe('hello');
  });

  it('refuses to overwrite an existing file and points to overwrite_file', async () => {
    expect(await refused('create_file', { path: 'notes.md', content: 'gone' })).toMatch(
      /already exists; create_file only creates new files\. Use overwrite_file/,
    );
    expect(readFileSync(file('notes.md'), 'utf8')).toBe('# Notes\nTODO: write docs\n');
  });

  it('overwrites with overwrite_file', async () => {
    expect(await ok('overwrite_file', { path: 'notes.md', content: 'new' })).toBe('Overwrote notes.md (3 B).');
    expect(readFileSync(file('notes.md'), 'utf8')).toBe('new');
  });

  it('creates directories idempotently and refuses when a file is in the way', async () => {
    expect(await ok('create_directory', { path: 'a/b/c' })).toBe('Created a/b/c/.');
    expect(await ok('create_directory', { path: 'a/b/c' })).toBe('a/b/c already exists.');
    expect(await refused('create_directory', { path: 'notes.md' })).toMatch(/exists and is a file/);
  });
});

describe('str_replace', () => {
  it('replaces one exact unique match', async () => {
    await ok('str_replace', { path: 'src/app.ts', oldText: 'return a - b;', newText: 'return a - b; // subtract' });
    expect(readFileSync(file('src/app.ts'), 'utf8')).toMatch(/return a - b; \/\/ subtract\n/);
  });

  it('refuses an ambiguous match and lists every occurrence with its line number', async () => {
    const out = await refused('str_replace', { path: 'src/app.ts', oldText: 'export function', newText: 'function' });
    expect(out).toMatch(/occurs 2 times in src\/app\.ts/);
    expect(out).toMatch(/line 1: export function add\(a, b\) \{/);
    expect(out).toMatch(/line 5: export function sub\(a, b\) \{/);
  });

  it('refuses a missing match and shows the lines that differ only in whitespace', async () => {
    const out = await refused('str_replace', { path: 'src/app.ts', oldText: 'return  a + b;', newText: 'x' });
    expect(out).toMatch(/oldText was not found in src\/app\.ts/);
    expect(out).toMatch(/except for whitespace[\s\S]*line 2: {3}return a \+ b;/);
  });

  it('refuses a missing match and shows the closest lines', async () => {
    const out = await refused('str_replace', { path: 'src/app.ts', oldText: 'return a * b;', newText: 'x' });
    expect(out).toMatch(/The closest lines are:\n\s+line 2: {3}return a \+ b;/);
  });
});

describe('apply_patch', () => {
  const patch = [
    '--- a/src/app.ts',
    '+++ b/src/app.ts',
    '@@ -1,3 +1,3 @@',
    '-export function add(a, b) {',
    '+export function add(a: number, b: number) {',
    '   return a + b;',
    ' }',
    '--- /dev/null',
    '+++ b/src/new.ts',
    '@@ -0,0 +1,1 @@',
    '+export const created = true;',
    '',
  ].join('\n');

  it('applies a multi-file unified diff, creating files from /dev/null', async () => {
    expect(await ok('apply_patch', { patch })).toBe('Applied the patch:\n  modified src/app.ts\n  created src/new.ts');
    expect(readFileSync(file('src/app.ts'), 'utf8')).toMatch(/^export function add\(a: number, b: number\) \{/);
    expect(readFileSync(file('src/new.ts'), 'utf8')).toBe('export const created = true;\n');
  });

  it('checks without writing when asked', async () => {
    expect(await ok('apply_patch', { patch, check: true })).toMatch(/applies cleanly \(nothing written\)/);
    expect(existsSync(file('src/new.ts'))).toBe(false);
  });

  it('writes nothing at all when one hunk of one file does not match', async () => {
    const bad = `${patch}--- a/src/util.ts\n+++ b/src/util.ts\n@@ -1,1 +1,1 @@\n-// DONE: more\n+// DONE\n`;
    const out = await refused('apply_patch', { patch: bad });
    expect(out).toMatch(
      /Hunk 1 of 1 for src\/util\.ts \(@@ -1,1 \+1,1 @@\) does not match the current content; nothing was written/,
    );
    expect(readFileSync(file('src/app.ts'), 'utf8')).toMatch(/^export function add\(a, b\) \{/);
    expect(existsSync(file('src/new.ts'))).toBe(false);
  });

  it('deletes a file patched to /dev/null', async () => {
    const del = '--- a/src/util.ts\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-// TODO: more\n-export const one = 1;\n';
    expect(await ok('apply_patch', { patch: del })).toBe('Applied the patch:\n  deleted src/util.ts');
    expect(existsSync(file('src/util.ts'))).toBe(false);
  });

  it('refuses a patch that targets a path outside the root', async () => {
    const evil = '--- /dev/null\n+++ b/../outside/evil.txt\n@@ -0,0 +1 @@\n+pwned\n';
    expect(await refused('apply_patch', { patch: evil })).toMatch(/outside the workspace root/);
    expect(existsSync(path.join(outside, 'evil.txt'))).toBe(false);
  });

  it('refuses text that is not a patch', async () => {
    expect(await refused('apply_patch', { patch: 'just some words' })).toMatch(/no hunks/);
  });
});

describe('move_path and delete_path', () => {
  it('moves a file and refuses to replace an existing destination', async () => {
    expect(await ok('move_path', { from: 'notes.md', to: 'src/notes.md' })).toBe('Moved notes.md → src/notes.md.');
    expect(await refused('move_path', { from: 'src/notes.md', to: 'src/app.ts' })).toMatch(
      /already exists; move_path never replaces/,
    );
    expect(await refused('move_path', { from: 'src', to: 'src/inner' })).toMatch(/into itself/);
  });

  it('deletes files, and folders only with recursive: true', async () => {
    expect(await ok('delete_path', { path: 'notes.md' })).toBe('Deleted notes.md.');
    expect(await refused('delete_path', { path: 'src' })).toMatch(/not empty; pass recursive: true/);
    expect(await ok('delete_path', { path: 'src', recursive: true })).toBe('Deleted src/ and everything in it.');
    expect(lstatSync(root).isDirectory()).toBe(true);
    expect(await refused('delete_path', { path: 'src' })).toMatch(/Nothing exists at src/);
  });
});
