/**
 * The gateway config's `"taint"` setting (the gateway's, and a profile's own), checked:
 * a mistake names the file, the JSON path and the allowed values.
 */
import { TAINT_MODES } from '../host/taint.js';
import type { TaintMode } from '../host/types.js';
import { fail } from './config-json.js';

/**
 * Check a `"taint"` value.
 *
 * @example
 * ```ts
 * parseTaint('candor.gateway.json', 'profiles.ci.taint', 'deny'); // 'deny'
 * ```
 */
export function parseTaint(file: string, where: string, value: unknown): TaintMode {
  if (typeof value !== 'string' || !(TAINT_MODES as readonly string[]).includes(value))
    fail(
      file,
      where,
      `got ${JSON.stringify(value)}; use "ask" (a person confirms destructive or sending calls after untrusted content), "deny" (they are refused) or "off".`,
    );
  return value as TaintMode;
}
