/**
 * `candor scripts`: a person adds, lists and removes stored scripts in the scripts file
 * next to a gateway config (or in the file `"scripts"` names); a name taken, a broken
 * file or no config is a clear message and a non-zero exit, and the file is left as it was.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'candor-cli-scripts-'));
beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = join(dir, 'candor.gateway.json');
writeFileSync(
  config,
  JSON.stringify({
    servers: { notes: { command: 'node', args: ['notes.js'] } },
    profiles: { code: { toolList: 'code' } },
  }),
);
const scripts = join(dir, 'candor.scripts.json');

describe('candor scripts', () => {
  test('adds a script next to the config, lists it, refuses the name again and removes it', async () => {
    writeFileSync(join(dir, 'count.js'), 'const all = await tools.notes__read_notes({});\nreturn all.length;\n');
    const added = await runCli(
      ['scripts', 'add', 'count_notes', '--description', 'How many notes there are.', '--from', 'count.js'],
      { cwd: dir },
    );
    expect(added.stderr).toBe('');
    expect(added.stdout).toBe(`Stored count_notes in ${scripts}.\n`);
    expect(JSON.parse(readFileSync(scripts, 'utf8'))).toEqual({
      scripts: {
        count_notes: {
          description: 'How many notes there are.',
          code: 'const all = await tools.notes__read_notes({});\nreturn all.length;\n',
          savedBy: 'person',
        },
      },
    });
    const listed = await runCli(['scripts', 'list', '--config', config]);
    expect(listed.stdout).toBe('count_notes (saved by person): How many notes there are.\n');
    const before = readFileSync(scripts, 'utf8');
    const again = await runCli(['scripts', 'add', 'count_notes', '--description', 'x', '--code', 'return 1;'], {
      cwd: dir,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('A stored script named "count_notes" exists already');
    expect(readFileSync(scripts, 'utf8')).toBe(before);
    const removed = await runCli(['scripts', 'remove', 'count_notes', '--file', scripts]);
    expect(removed.stdout).toBe(`Removed count_notes from ${scripts}.\n`);
    expect(JSON.parse(readFileSync(scripts, 'utf8'))).toEqual({ scripts: {} });
  });

  test('a broken scripts file is named and left as it was; without a config the command says what to pass', async () => {
    const broken = '{ "scripts": { "x": { "description": "", "code": "return 1;" } } }';
    writeFileSync(scripts, broken);
    const refused = await runCli(['scripts', 'add', 'y', '--description', 'Y.', '--code', 'return 2;'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${scripts}: scripts.x: A stored script needs a description`);
    expect(readFileSync(scripts, 'utf8')).toBe(broken);
    const nowhere = await runCli(['scripts', 'list'], { cwd: tmpdir() });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('No scripts file: pass --file FILE or --config FILE');
  });
});
