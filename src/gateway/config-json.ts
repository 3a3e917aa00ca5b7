/**
 * Reading a gateway config file as JSON and finding its gateway section: what
 * `loadGatewayConfig` and the sandbox settings `candor pin` and `candor ui` read
 * share. Every mistake names the file and the JSON path.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CandorError } from '../errors.js';
import { stripJsonComments } from '../targets/config-file.js';
import { isRecord } from '../util/is-record.js';
import { findJsonError, pointAt } from '../util/json-position.js';
import { GatewayConfigError } from './config-problems.js';

/** Throw the config error: `file: where: message` (a {@link ConfigProblems} check records it and goes on). */
export function fail(file: string, where: string, message: string): never {
  throw new GatewayConfigError(file, [{ where, message }]);
}

/**
 * The parsed file (JSONC: comments and trailing commas allowed); a syntax error names the line and column.
 *
 * @example
 * ```ts
 * const parsed = await readConfigJson('/home/me/candor.gateway.json');
 * ```
 */
export async function readConfigJson(absolute: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CandorError(
      code === 'ENOENT' ? `Gateway config not found: ${absolute}.` : `Cannot read ${absolute}: ${String(error)}`,
      { code: 'invalid_gateway_config', cause: error },
    );
  }
  const stripped = stripJsonComments(text);
  try {
    return JSON.parse(stripped);
  } catch {
    const problem = findJsonError(stripped);
    const at = pointAt(stripped, problem?.offset ?? 0);
    throw new CandorError(
      `${absolute}:${at.line}:${at.column}: not valid JSON: ${problem?.message ?? 'syntax error'}\n${at.excerpt.join('\n')}`,
      { code: 'invalid_gateway_config' },
    );
  }
}

/** Where a config keeps the gateway's settings and its servers. */
export interface GatewaySection {
  /** The object holding the settings (the file, or its `gateway` key). */
  root: Record<string, unknown>;
  /** JSON path prefix of `root` in messages: `''` or `'gateway.'`. */
  prefix: string;
  /** The server map (`servers`, else `mcpServers`), unchecked. */
  map: unknown;
  /** JSON path of the server map. */
  mapKey: string;
  /** A client config (`mcpServers` only): its other keys are the client's, not the gateway's. */
  clientConfig: boolean;
}

/**
 * The gateway section of a parsed config: the `gateway` key of `candor.config.json`
 * (or of any file whose top level has no server map), else the file itself.
 * Undefined when a `candor.config.json` has no `gateway` object.
 *
 * @example
 * ```ts
 * gatewaySection({ gateway: { servers: {} } }, '/x/candor.config.json')?.prefix; // 'gateway.'
 * ```
 */
export function gatewaySection(parsed: Record<string, unknown>, file: string): GatewaySection | undefined {
  let root = parsed;
  let prefix = '';
  if (
    path.basename(file) === 'candor.config.json' ||
    (isRecord(parsed.gateway) && !parsed.servers && !parsed.mcpServers)
  ) {
    if (!isRecord(parsed.gateway)) return undefined;
    root = parsed.gateway;
    prefix = 'gateway.';
  }
  return {
    root,
    prefix,
    map: root.servers ?? root.mcpServers,
    mapKey: `${prefix}${root.servers !== undefined ? 'servers' : 'mcpServers'}`,
    clientConfig: isRecord(root.mcpServers) && root.servers === undefined,
  };
}
