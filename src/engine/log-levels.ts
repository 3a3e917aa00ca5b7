/**
 * MCP log levels (RFC 5424 severities) and the `logging/setLevel` filter.
 */
import type { LogLevel } from '../tool/types.js';

/** Levels from least to most severe. */
export const LOG_LEVELS: readonly LogLevel[] = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

const SEVERITY = new Map<string, number>(LOG_LEVELS.map((level, index) => [level, index]));

/** Whether a value is one of the eight MCP log levels. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && SEVERITY.has(value);
}

/**
 * Whether a message at `level` reaches a client whose minimum is `minimum`
 * (undefined = the client never called `logging/setLevel`: everything is sent).
 *
 * @example
 * ```ts
 * shouldSend('info', 'warning'); // false
 * shouldSend('error', 'warning'); // true
 * ```
 */
export function shouldSend(level: LogLevel, minimum: LogLevel | undefined): boolean {
  if (minimum === undefined) return true;
  return (SEVERITY.get(level) ?? 0) >= (SEVERITY.get(minimum) ?? 0);
}
