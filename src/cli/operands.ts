/**
 * The words after `--` on the command line: a stdio server command. Commander
 * passes them on as ordinary operands, so they are told apart using the raw
 * argv of the root program (everything from the first `--` on).
 */
import type { Command } from 'commander';

/**
 * Split a command's operands into the ones before `--` and the command after it.
 *
 * @example
 * ```ts
 * // candor call read_file '{"path":"a"}' -- node server.js
 * splitAtDashDash(cmd, ['read_file', '{"path":"a"}', 'node', 'server.js']);
 * // { before: ['read_file', '{"path":"a"}'], command: ['node', 'server.js'] }
 * ```
 */
export function splitAtDashDash(
  command: Command,
  operands: readonly string[],
): { before: string[]; command: string[] } {
  let root: Command = command;
  while (root.parent) root = root.parent;
  const raw = (root as unknown as { rawArgs?: string[] }).rawArgs ?? [];
  const dash = raw.indexOf('--');
  const tail = dash < 0 ? 0 : Math.min(raw.length - dash - 1, operands.length);
  return { before: operands.slice(0, operands.length - tail), command: operands.slice(operands.length - tail) };
}
