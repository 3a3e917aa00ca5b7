/**
 * Checks of the gateway config's plain values (paths, positive numbers, globs) and of
 * its small settings objects (`lock`, `commandTools`, `rateLimits`, `reconnect`). Each
 * throws the config error naming the JSON path; a check over a map reports each bad
 * item and goes on.
 */
import type { RateLimit } from '../tool/types.js';
import { isRecord } from '../util/is-record.js';
import { fail } from './config-json.js';
import type { ConfigProblems } from './config-problems.js';
import type { GatewayOptions } from './types.js';

/** An array of tool names or globs. */
export function globsOf(file: string, where: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.trim() === ''))
    fail(file, where, 'expected an array of tool names or globs, e.g. ["memory__read_graph", "files__read_*"].');
  return value as string[];
}

/** A non-empty path, resolved with `resolve`. */
export function pathOf(file: string, where: string, value: unknown, resolve: (p: string) => string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(file, where, 'expected a file path.');
  return resolve(value);
}

/** A finite number above 0. */
export function positive(file: string, where: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    fail(file, where, 'must be a positive number.');
  return value;
}

/** `"lock"`: a path or `{ file, onChange, onNew }`. */
export function lockOf(
  file: string,
  where: string,
  value: unknown,
  resolve: (p: string) => string,
): NonNullable<GatewayOptions['lock']> {
  const lock = typeof value === 'string' ? { file: value } : value;
  if (!isRecord(lock) || typeof lock.file !== 'string')
    fail(file, where, 'expected a path or { "file": "candor.lock.json", "onChange": "block", "onNew": "ask" }.');
  const modes = ['block', 'ask', 'warn'];
  if (lock.onChange !== undefined && !modes.includes(lock.onChange as string))
    fail(file, `${where}.onChange`, 'must be "block", "ask" or "warn".');
  if (lock.onNew !== undefined && ![...modes, 'allow'].includes(lock.onNew as string))
    fail(file, `${where}.onNew`, 'must be "block", "ask", "warn" or "allow".');
  return {
    file: resolve(lock.file),
    ...(lock.onChange !== undefined ? { onChange: lock.onChange as 'block' } : {}),
    ...(lock.onNew !== undefined ? { onNew: lock.onNew as 'ask' } : {}),
  };
}

/** `"commandTools"`: `{ "<tool glob>": { "argument": "command" } }`. */
export function commandToolsOf(file: string, where: string, value: unknown): Record<string, { argument: string }> {
  if (!isRecord(value)) fail(file, where, 'expected { "<tool glob>": { "argument": "command" } }.');
  const commandTools: Record<string, { argument: string }> = {};
  for (const [glob, entry] of Object.entries(value)) {
    if (!isRecord(entry) || typeof entry.argument !== 'string')
      fail(file, `${where}.${glob}`, 'expected { "argument": "<name of the argument holding the command>" }.');
    commandTools[glob] = { argument: entry.argument };
  }
  return commandTools;
}

/** `"rateLimits"`: `{ servers, tools }` of `{ windowMs, max }`; each bad limit is reported. */
export function rateLimitsOf(
  file: string,
  where: string,
  value: unknown,
  upstreams: readonly string[],
  problems: ConfigProblems,
): NonNullable<GatewayOptions['rateLimits']> {
  if (!isRecord(value)) fail(file, where, 'expected { "servers": { … }, "tools": { … } }.');
  const limits: NonNullable<GatewayOptions['rateLimits']> = {};
  for (const kind of ['servers', 'tools'] as const) {
    const group = value[kind];
    if (group === undefined) continue;
    if (!isRecord(group)) {
      problems.report(`${where}.${kind}`, 'expected an object of { "windowMs": 60000, "max": 100 } by name.');
      continue;
    }
    const out: Record<string, RateLimit> = {};
    for (const [name, limit] of Object.entries(group)) {
      const at = `${where}.${kind}.${name}`;
      const checked = problems.check(() => {
        if (kind === 'servers' && !upstreams.includes(name))
          fail(file, at, `no upstream named ${JSON.stringify(name)}; the upstreams are ${upstreams.join(', ')}.`);
        if (!isRecord(limit)) fail(file, at, 'expected { "windowMs": 60000, "max": 100 }.');
        const max = positive(file, `${at}.max`, limit.max);
        if (!Number.isInteger(max)) fail(file, `${at}.max`, 'must be a whole number.');
        return { windowMs: positive(file, `${at}.windowMs`, limit.windowMs), max };
      });
      if (checked) out[name] = checked;
    }
    limits[kind] = out;
  }
  return limits;
}

/** `"reconnect"`: `{ initialDelayMs, maxDelayMs }`, each reported on its own. */
export function reconnectOf(
  file: string,
  where: string,
  value: unknown,
  problems: ConfigProblems,
): NonNullable<GatewayOptions['reconnect']> {
  if (!isRecord(value)) fail(file, where, 'expected { "initialDelayMs": 1000, "maxDelayMs": 60000 }.');
  const reconnect: NonNullable<GatewayOptions['reconnect']> = {};
  for (const key of ['initialDelayMs', 'maxDelayMs'] as const) {
    if (value[key] === undefined) continue;
    const delay = problems.check(() => positive(file, `${where}.${key}`, value[key]));
    if (delay !== undefined) reconnect[key] = delay;
  }
  return reconnect;
}
