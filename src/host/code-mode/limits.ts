/**
 * The range each script limit may take. A limit outside it is refused where it is
 * set (the gateway config names the key; `createGateway` and `runHostScript` throw),
 * never clamped in silence: a person who wrote `cpuMs: 0` meant something else.
 * The bounds keep a run meaningful (a heap QuickJS can start in, one call at least)
 * and the gateway alive (a stack past the WebAssembly stack V8 gives the interpreter
 * would crash the process instead of failing the script).
 */
import { CandorError } from '../../errors.js';
import type { ScriptLimits } from './types.js';

/** One limit's allowed range (inclusive) and its unit, as a person reads it. */
export interface LimitRange {
  min: number;
  max: number;
  unit: 'bytes' | 'ms' | 'calls';
}

const KIB = 1024;
const MIB = 1024 * KIB;

/** Every limit's range; the keys are the limits there are. */
export const LIMIT_RANGES: Readonly<Record<keyof ScriptLimits, LimitRange>> = Object.freeze({
  memoryBytes: { min: 1 * MIB, max: 1024 * MIB, unit: 'bytes' },
  stackBytes: { min: 32 * KIB, max: 256 * KIB, unit: 'bytes' },
  cpuMs: { min: 10, max: 600_000, unit: 'ms' },
  deadlineMs: { min: 100, max: 3_600_000, unit: 'ms' },
  outputBytes: { min: 1 * KIB, max: 16 * MIB, unit: 'bytes' },
  maxCalls: { min: 1, max: 10_000, unit: 'calls' },
});

/** The names of the limits, in the order they are documented. */
export const LIMIT_KEYS = Object.keys(LIMIT_RANGES) as Array<keyof ScriptLimits>;

/**
 * What is wrong with one limit's value, or undefined when it is in range.
 *
 * @example
 * ```ts
 * limitProblem('cpuMs', 0); // 'must be a whole number from 10 to 600000 (ms); got 0.'
 * ```
 */
export function limitProblem(key: keyof ScriptLimits, value: unknown): string | undefined {
  const range = LIMIT_RANGES[key];
  if (typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max)
    return undefined;
  return `must be a whole number from ${range.min} to ${range.max} (${range.unit}); got ${JSON.stringify(value) ?? String(value)}.`;
}

/**
 * Check limits given in code: an unknown key or a value out of range throws, naming
 * each (`what` says where they were set).
 *
 * @example
 * ```ts
 * checkScriptLimits({ cpuMs: 500 }, 'codeMode'); // ok
 * checkScriptLimits({ cpuMs: 0 }, 'codeMode'); // throws: codeMode.cpuMs must be a whole number from 10 …
 * ```
 */
export function checkScriptLimits(limits: unknown, what: string): ScriptLimits {
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits))
    throw new CandorError(`${what} must be an object of script limits (${LIMIT_KEYS.join(', ')}).`, {
      code: 'invalid_host_options',
    });
  const problems: string[] = [];
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in LIMIT_RANGES)) {
      problems.push(`${what}.${key} is not a script limit; the limits are ${LIMIT_KEYS.join(', ')}.`);
      continue;
    }
    if (value === undefined) continue;
    const problem = limitProblem(key as keyof ScriptLimits, value);
    if (problem !== undefined) problems.push(`${what}.${key} ${problem}`);
  }
  if (problems.length > 0) throw new CandorError(problems.join(' '), { code: 'invalid_host_options' });
  return limits as ScriptLimits;
}
