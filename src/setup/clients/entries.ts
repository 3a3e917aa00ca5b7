/**
 * The entry shapes most clients share: `command`/`args`/`env` for stdio and `url` (with
 * `type` and `headers`) for HTTP, the format Claude Desktop introduced.
 */
import { isRecord } from '../../util/is-record.js';
import type { ServerEntry } from '../types.js';

/** The string map at `raw[key]`, or a reason it is not one. */
function strings(raw: Record<string, unknown>, key: string): Record<string, string> | undefined | string {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (!isRecord(value) || !Object.values(value).every((v) => typeof v === 'string'))
    return `"${key}" must map names to strings`;
  return value as Record<string, string>;
}

/**
 * A `mcpServers`-style entry as a gateway upstream, or the reason it cannot be one.
 *
 * @example
 * ```ts
 * readCommonEntry({ command: 'npx', args: ['-y', 'pkg'] }); // { command: 'npx', args: ['-y', 'pkg'] }
 * ```
 */
export function readCommonEntry(
  raw: Record<string, unknown>,
  urlKeys: readonly string[] = ['url'],
): ServerEntry | string {
  const env = strings(raw, 'env');
  if (typeof env === 'string') return env;
  const headers = strings(raw, 'headers');
  if (typeof headers === 'string') return headers;
  if (typeof raw.command === 'string' && raw.command.trim() !== '') {
    if (raw.args !== undefined && !(Array.isArray(raw.args) && raw.args.every((a) => typeof a === 'string')))
      return '"args" must be an array of strings';
    return {
      command: raw.command,
      ...(raw.args ? { args: raw.args as string[] } : {}),
      ...(env ? { env } : {}),
      ...(typeof raw.cwd === 'string' ? { cwd: raw.cwd } : {}),
    };
  }
  const urlKey = urlKeys.find((key) => typeof raw[key] === 'string');
  if (urlKey) {
    const type = typeof raw.type === 'string' ? raw.type.toLowerCase() : undefined;
    return {
      url: raw[urlKey] as string,
      ...(type === 'sse' ? { type: 'sse' } : {}),
      ...(headers ? { headers } : {}),
    };
  }
  return 'neither "command" (stdio) nor a URL (HTTP) is set';
}

/**
 * A gateway upstream as a `mcpServers`-style entry (`type` added for clients that want
 * it), or why it cannot be one. Gateway-only keys (sandbox, results, hooks…) have no
 * place in a client's entry and are left out.
 *
 * @example
 * ```ts
 * writeCommonEntry({ command: 'npx', args: ['-y', 'pkg'] }); // { command: 'npx', args: ['-y', 'pkg'] }
 * ```
 */
export function writeCommonEntry(
  upstream: ServerEntry,
  options: { typed?: boolean; remote?: boolean; urlKey?: string } = {},
): Record<string, unknown> | string {
  if (upstream.command !== undefined) {
    return {
      ...(options.typed ? { type: 'stdio' } : {}),
      command: upstream.command,
      ...(upstream.args ? { args: upstream.args } : {}),
      ...(upstream.env ? { env: upstream.env } : {}),
      ...(upstream.cwd ? { cwd: upstream.cwd } : {}),
    };
  }
  if (upstream.url === undefined) return 'it has neither "command" nor "url"';
  if (options.remote === false) return 'the client starts stdio servers only, and this one is remote';
  return {
    ...(options.typed ? { type: upstream.type === 'sse' ? 'sse' : 'http' } : {}),
    [options.urlKey ?? 'url']: upstream.url,
    ...(upstream.headers ? { headers: upstream.headers } : {}),
  };
}
