/**
 * The gateway config's `"quotas"` list, checked: every mistake names the file
 * and the JSON path (`gateway.quotas[1].effects[0]`), as the rest of the config does.
 */
import { isRecord } from '../../util/is-record.js';
import { fail } from '../config-json.js';
import type { Quota } from './types.js';

const KEYS = ['name', 'tools', 'servers', 'effects', 'per', 'max', 'windowMs'];
const EFFECTS = ['read', 'additive', 'destructive'] as const;
const MAX_WINDOW_MS = 100 * 365 * 86_400_000;
const EXAMPLE = '{ "effects": ["destructive"], "per": "person", "max": 20, "windowMs": 3600000 }';

/**
 * Check `"quotas"`; `servers` are the configured upstream names (a quota naming another is a mistake).
 *
 * @example
 * ```ts
 * parseQuotas('candor.gateway.json', 'quotas', [{ effects: ['destructive'], max: 20, windowMs: 3_600_000 }], ['github']);
 * ```
 */
export function parseQuotas(file: string, where: string, value: unknown, servers: readonly string[]): Quota[] {
  if (!Array.isArray(value)) fail(file, where, `expected an array of quotas, e.g. [${EXAMPLE}].`);
  const names = new Set<string>();
  return value.map((raw, index) => {
    const at = `${where}[${index}]`;
    if (!isRecord(raw)) fail(file, at, `expected an object, e.g. ${EXAMPLE}.`);
    for (const key of Object.keys(raw)) {
      if (!KEYS.includes(key)) fail(file, `${at}.${key}`, `unknown key; expected ${KEYS.join(', ')}.`);
    }
    const quota: Quota = { max: wholePositive(file, `${at}.max`, raw.max), windowMs: windowOf(file, at, raw.windowMs) };
    if (raw.name !== undefined) {
      if (typeof raw.name !== 'string' || raw.name.trim() === '')
        fail(file, `${at}.name`, 'expected a non-empty name.');
      if (names.has(raw.name)) fail(file, `${at}.name`, `another quota is already named ${JSON.stringify(raw.name)}.`);
      names.add(raw.name);
      quota.name = raw.name;
    }
    if (raw.tools !== undefined) {
      quota.tools = strings(file, `${at}.tools`, raw.tools, 'tool names or globs, e.g. ["github__delete_*"]');
    }
    if (raw.servers !== undefined) {
      quota.servers = strings(file, `${at}.servers`, raw.servers, 'upstream names, e.g. ["github"]');
      quota.servers.forEach((server, i) => {
        if (!servers.includes(server))
          fail(
            file,
            `${at}.servers[${i}]`,
            `no upstream named ${JSON.stringify(server)}; the upstreams are ${servers.join(', ')}.`,
          );
      });
    }
    if (raw.effects !== undefined) {
      const effects = strings(file, `${at}.effects`, raw.effects, 'effect classes, e.g. ["destructive"]');
      effects.forEach((effect, i) => {
        if (!(EFFECTS as readonly string[]).includes(effect))
          fail(
            file,
            `${at}.effects[${i}]`,
            `unknown effect class ${JSON.stringify(effect)}; use ${EFFECTS.join(', ')}.`,
          );
      });
      quota.effects = effects as Quota['effects'];
    }
    if (raw.per !== undefined) {
      if (raw.per !== 'person' && raw.per !== 'all')
        fail(
          file,
          `${at}.per`,
          'must be "person" (each person counts alone) or "all" (every caller shares one count).',
        );
      quota.per = raw.per;
    }
    return quota;
  });
}

function strings(file: string, where: string, value: unknown, what: string): string[] {
  if (!Array.isArray(value) || value.length === 0) fail(file, where, `expected a non-empty array of ${what}.`);
  value.forEach((item, i) => {
    if (typeof item !== 'string' || item.trim() === '') fail(file, `${where}[${i}]`, `expected a string: ${what}.`);
  });
  return value as string[];
}

function wholePositive(file: string, where: string, value: unknown): number {
  if (value === undefined) fail(file, where, 'required: the number of calls a window allows.');
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    fail(file, where, 'must be a whole number above 0.');
  return value;
}

function windowOf(file: string, at: string, value: unknown): number {
  const where = `${at}.windowMs`;
  if (value === undefined) fail(file, where, 'required: the window in milliseconds, e.g. 3600000 for an hour.');
  // Redis counts whole milliseconds; a window under a second would refuse and reset faster than a client can read it.
  // The top keeps every window's end a safe integer of epoch milliseconds; no quota needs more than a century.
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1000 || value > MAX_WINDOW_MS)
    fail(
      file,
      where,
      `must be a whole number of milliseconds from 1000 (a second) to ${MAX_WINDOW_MS} (100 years); got ${JSON.stringify(value)}.`,
    );
  return value;
}
