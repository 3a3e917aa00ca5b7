/**
 * A JSON object: not null, not an array. The one check every parser of untrusted
 * JSON in candor starts with (config files, wire messages, schemas, lockfiles).
 *
 * @example
 * ```ts
 * if (!isRecord(parsed)) throw new CandorError('The config must be a JSON object.', { code: 'invalid_gateway_config' });
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
