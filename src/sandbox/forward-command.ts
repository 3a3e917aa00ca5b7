/**
 * Where the forwarder scripts are, and a command wrapped in the forwarder
 * process: the one way, for every sandbox, to give a program listeners on
 * loopback addresses of its own network namespace that lead outside.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ForwardRule } from './forwarding.js';

/** A script of this folder, built: `dist/src/sandbox/<name>` also when this file runs from `src/` (tests). */
export function builtScript(name: 'forwarder.js' | 'forwarder-hook.js'): string {
  const here = fileURLToPath(new URL(`./${name}`, import.meta.url));
  if (existsSync(here)) return here;
  return here.replace(
    `${path.sep}src${path.sep}sandbox${path.sep}`,
    `${path.sep}dist${path.sep}src${path.sep}sandbox${path.sep}`,
  );
}

/**
 * `command args` run by the forwarder process (this Node), which first listens on every rule's
 * address inside the sandbox and pipes each connection to the rule's Unix socket.
 *
 * @example
 * ```ts
 * forwardedCommand([{ host: '127.0.0.1', port: 5432, socket: '/tmp/d/run/.s.PGSQL.5432' }], 'node', ['server.js']);
 * // { command: process.execPath, args: ['…/forwarder.js', '[…]', 'node', 'server.js'] }
 * ```
 */
export function forwardedCommand(
  rules: readonly ForwardRule[],
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return { command: process.execPath, args: [builtScript('forwarder.js'), JSON.stringify(rules), command, ...args] };
}
