/**
 * The generated workdir of a scan: real material for file, version-control and
 * database tools, so their calls have something to read and change — text files,
 * a small git repository with history, and a SQLite file.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

const FILES: Record<string, string> = {
  'README.md': '# notes\n\nA small project the scan generated.\n',
  'notes.txt': 'first line\nsecond line\nthird line\n',
  'src/index.js': "export function greet(name) {\n  return 'hello ' + name;\n}\n",
  'data/items.json': '[{"id":1,"name":"apple"},{"id":2,"name":"pear"}]\n',
};

const SQL = [
  'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);',
  "INSERT INTO items (name) VALUES ('apple'), ('pear'), ('plum');",
].join('\n');

/**
 * Write a fresh workdir (under the system temp folder) and return its path.
 *
 * @example
 * ```ts
 * const dir = await generateWorkdir(); // holds README.md, .git with two commits, data/items.db
 * ```
 */
export async function generateWorkdir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'candor-scan-work-'));
  const git = (...args: string[]) =>
    exec('git', ['-c', 'user.name=candor', '-c', 'user.email=scan@candor.invalid', ...args], { cwd: dir });
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  await git('init', '-q', '-b', 'main');
  // An author, as a user's machine has one: the sandbox's HOME has no ~/.gitconfig, and without it every commit fails.
  await git('config', 'user.name', 'candor');
  await git('config', 'user.email', 'scan@candor.invalid');
  await git('add', 'README.md', 'src');
  await git('commit', '-q', '-m', 'first commit');
  await git('add', '.');
  await git('commit', '-q', '-m', 'notes and data');
  await exec('sqlite3', [path.join(dir, 'data', 'items.db'), SQL]);
  return dir;
}
