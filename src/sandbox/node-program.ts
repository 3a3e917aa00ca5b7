/**
 * Is a stdio server a program of this very Node? `node server.js`, or a
 * script whose first line is `#!/usr/bin/env node` or `#!/…/node` (npx, a package's
 * bin). Then a network allow-list's listeners can run inside the server's own
 * process (`node --import forwarder-hook.js …`) instead of a second Node process.
 * Only for the Node that runs candor: another one may not know `--import`.
 */
import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { findProgram } from './package-folder.js';

/** Arguments after which node runs code that is not a main module (`--import` would not precede it). */
const NOT_A_MAIN_MODULE = /^(?:-e|--eval|-p|--print|-i|--interactive|-|--test|--run|-c|--check)(?:=|$)/;

function real(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

function firstLine(file: string): string {
  const buffer = Buffer.alloc(256);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, length).toString('utf8').split('\n', 1)[0] ?? '';
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * How to run `command args` as `node [node's own flags] <main module> …`, or undefined
 * when it is not a main module run by this process's Node.
 *
 * @example
 * ```ts
 * nodeProgram('npx', ['-y', 'some-server'], process.cwd(), process.env.PATH ?? '');
 * // { node: '/usr/bin/node', args: ['/usr/bin/npx', '-y', 'some-server'] }
 * ```
 */
export function nodeProgram(
  command: string,
  args: readonly string[],
  cwd: string,
  pathVar: string,
): { node: string; args: string[] } | undefined {
  const self = real(process.execPath);
  const program = findProgram(command, cwd, pathVar);
  if (program === undefined || self === undefined) return undefined;
  if (real(program) === self) {
    if (args.some((arg) => NOT_A_MAIN_MODULE.test(arg)) || !args.some((arg) => !arg.startsWith('-'))) return undefined;
    return { node: program, args: [...args] };
  }
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?\s*$/.exec(firstLine(program));
  if (!shebang) return undefined;
  const [, interpreter, argument] = shebang;
  const node =
    path.basename(interpreter!) === 'env' && argument === 'node'
      ? findProgram('node', cwd, pathVar)
      : argument === undefined
        ? interpreter
        : undefined;
  if (node === undefined || real(node) !== self) return undefined;
  return { node, args: [program, ...args] };
}
