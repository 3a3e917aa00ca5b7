/**
 * Code mode's settings: the script limits (the gateway's `codeMode`, and a profile's
 * own over it) checked with the key and the allowed range in every message, and the
 * stored scripts' file found (the `scripts` setting, else next to the config file).
 */
import path from 'node:path';
import { CandorError } from '../../errors.js';
import { LIMIT_KEYS, LIMIT_RANGES, limitProblem } from '../../host/code-mode/limits.js';
import type { ScriptLimits } from '../../host/code-mode/types.js';
import { isRecord } from '../../util/is-record.js';
import { fail } from '../config-json.js';
import { type ConfigProblems, unknownKey } from '../config-problems.js';
import type { GatewayOptions } from '../types.js';
import { SCRIPTS_FILE_NAME, ScriptStore } from './script-store.js';

/**
 * A `codeMode` value of a config file: each limit's mistake is recorded with its JSON
 * path (`profiles.ci.codeMode.cpuMs`), an unknown key with the limit it likely meant.
 *
 * @example
 * ```ts
 * codeModeLimitsOf('candor.gateway.json', 'codeMode', { cpuMs: 500 }, problems); // { cpuMs: 500 }
 * ```
 */
export function codeModeLimitsOf(file: string, where: string, value: unknown, problems: ConfigProblems): ScriptLimits {
  if (!isRecord(value))
    fail(
      file,
      where,
      `expected an object of script limits, e.g. { "cpuMs": 1000, "maxCalls": 50 }; the limits are ${LIMIT_KEYS.join(', ')}.`,
    );
  const limits: ScriptLimits = {};
  for (const [key, raw] of Object.entries(value)) {
    if (!(key in LIMIT_RANGES)) {
      problems.report(`${where}.${key}`, unknownKey(key, LIMIT_KEYS));
      continue;
    }
    const problem = limitProblem(key as keyof ScriptLimits, raw);
    if (problem !== undefined) problems.report(`${where}.${key}`, problem);
    else limits[key as keyof ScriptLimits] = raw as number;
  }
  return limits;
}

/**
 * Check the limits `createGateway` was given (the gateway's and each profile's).
 *
 * @example
 * ```ts
 * checkCodeModeLimits({ servers, codeMode: { cpuMs: 0 } }); // throws: codeMode.cpuMs must be a whole number from 10 …
 * ```
 */
export function checkCodeModeLimits(options: Pick<GatewayOptions, 'codeMode' | 'profiles'>): void {
  const problems: string[] = [];
  const check = (where: string, limits: ScriptLimits | undefined) => {
    if (limits === undefined) return;
    if (!isRecord(limits)) {
      problems.push(`${where} must be an object of script limits.`);
      return;
    }
    for (const [key, value] of Object.entries(limits)) {
      if (!(key in LIMIT_RANGES)) problems.push(`${where}.${key} is not a limit (${LIMIT_KEYS.join(', ')}).`);
      else if (value !== undefined) {
        const problem = limitProblem(key as keyof ScriptLimits, value);
        if (problem !== undefined) problems.push(`${where}.${key} ${problem}`);
      }
    }
  };
  check('codeMode', options.codeMode);
  for (const [name, profile] of Object.entries(options.profiles ?? {}))
    check(`profiles.${name}.codeMode`, profile.codeMode);
  if (problems.length > 0) throw new CandorError(problems.join('\n'), { code: 'invalid_gateway_config' });
}

/**
 * Open the stored scripts: the `scripts` file, else `candor.scripts.json` next to the
 * config file, else in memory.
 *
 * @example
 * ```ts
 * const store = await openScripts({ servers, configFile: '/srv/candor.gateway.json' });
 * store.file; // '/srv/candor.scripts.json'
 * ```
 */
export function openScripts(options: Pick<GatewayOptions, 'scripts' | 'configFile'>): Promise<ScriptStore> {
  const file =
    options.scripts !== undefined
      ? path.resolve(options.scripts)
      : options.configFile !== undefined
        ? path.join(path.dirname(path.resolve(options.configFile)), SCRIPTS_FILE_NAME)
        : undefined;
  return ScriptStore.open({ file });
}
