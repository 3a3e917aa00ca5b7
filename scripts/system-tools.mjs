#!/usr/bin/env node
/**
 * Before any test: are the system tools the tests drive (scripts/system-tools.txt) on PATH?
 * As root with apt-get, what is missing is installed; otherwise the one command that installs
 * it is printed and the run stops (exit 1) before any test starts. Plain Node, no dependencies:
 * .ci/run runs it before `npm install`.
 *
 *   node scripts/system-tools.mjs           check, install as root, or print the command
 *   node scripts/system-tools.mjs --list    print the Debian packages, one a line
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'system-tools.txt');
/** Where Debian puts daemons (haproxy); not on a normal user's PATH. */
const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** The list's entries: command, Debian package, and why the tests need it. */
function readList() {
  return readFileSync(LIST, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [command, pkg, ...why] = line.split(/\s+/);
      return { command, pkg, why: why.join(' ') };
    });
}

/** The full path of an executable file called `name` in `dirs`, or undefined. */
function find(name, dirs) {
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  return undefined;
}

const pathDirs = () => (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);

/** The entries whose command is not on PATH, each with where it is off PATH, if anywhere. */
function missing(entries) {
  return entries
    .filter((entry) => !find(entry.command, pathDirs()))
    .map((entry) => ({ ...entry, offPath: find(entry.command, SBIN) }));
}

function main() {
  const entries = readList();
  if (process.argv.includes('--list')) {
    for (const entry of entries) console.log(entry.pkg);
    return 0;
  }
  let absent = missing(entries);
  const toInstall = () => [...new Set(absent.filter((e) => !e.offPath).map((e) => e.pkg))];
  const isRoot = process.getuid?.() === 0;
  const apt = find('apt-get', [...pathDirs(), ...SBIN]);
  if (toInstall().length > 0 && isRoot && apt) {
    console.error(`candor tests: installing ${toInstall().join(' ')} with apt-get`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const steps = [
      ['update', '-qq'],
      ['install', '-y', '-qq', '--no-install-recommends', ...toInstall()],
    ];
    for (const args of steps) {
      const result = spawnSync(apt, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
      if (result.status !== 0) {
        console.error(`candor tests: apt-get ${args[0]} failed (exit ${result.status ?? result.signal}).`);
        return 1;
      }
    }
    absent = missing(entries);
  }
  if (absent.length === 0) return 0;
  console.error('The tests drive these programs, which are not on PATH:');
  for (const e of absent) console.error(`  ${e.command.padEnd(13)} (${e.pkg}) ${e.why}`);
  const offPath = absent.filter((e) => e.offPath);
  if (offPath.length > 0) {
    const dirs = [...new Set(offPath.map((e) => path.dirname(e.offPath)))];
    console.error(`\n${offPath.map((e) => e.command).join(', ')} installed in ${dirs.join(', ')}: run`);
    console.error(`  export PATH="$PATH:${dirs.join(':')}"`);
  }
  if (toInstall().length > 0) {
    const command = `apt-get install -y --no-install-recommends ${toInstall().join(' ')}`;
    console.error(
      apt
        ? `\nInstall them with:\n  sudo ${command}`
        : `\nInstall the programs above (on Debian or Ubuntu: ${command}).`,
    );
  }
  console.error('\nThen run npm test again. No test was run.');
  return 1;
}

process.exitCode = main();
