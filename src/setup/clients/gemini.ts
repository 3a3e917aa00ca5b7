/**
 * Gemini CLI: ~/.gemini/settings.json (user) and .gemini/settings.json (project), an
 * `mcpServers` map; `httpUrl` is Streamable HTTP and `url` the older SSE transport.
 * Its own entry keys carry over: `trust` (no confirmations) to the gateway's trust,
 * `timeout` to the upstream's `timeoutMs`, `excludeTools` / `includeTools` to deny
 * rules of the gateway's policy, `cwd` as it is.
 */
import path from 'node:path';
import type { ClientSpec, ServerEntry } from '../types.js';
import { readCommonEntry, writeCommonEntry } from './entries.js';

const names = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** Gemini's own keys on top of a common entry, or the reason one is malformed. */
function geminiExtras(raw: Record<string, unknown>, entry: ServerEntry): ServerEntry | string {
  if (raw.trust !== undefined && typeof raw.trust !== 'boolean') return '"trust" must be true or false';
  if (raw.timeout !== undefined && !(typeof raw.timeout === 'number' && raw.timeout > 0))
    return '"timeout" must be a positive number of milliseconds';
  for (const key of ['excludeTools', 'includeTools'])
    if (raw[key] !== undefined && !names(raw[key])) return `"${key}" must be an array of tool names`;
  const filter = {
    ...(raw.excludeTools ? { exclude: raw.excludeTools as string[] } : {}),
    ...(raw.includeTools ? { include: raw.includeTools as string[] } : {}),
  };
  return {
    ...entry,
    ...(raw.trust === true ? { trust: 'trusted' as const } : {}),
    ...(typeof raw.timeout === 'number' ? { timeoutMs: raw.timeout } : {}),
    ...(Object.keys(filter).length > 0 ? { toolFilter: filter } : {}),
  };
}

/** Gemini CLI's config files and entries. */
export const gemini: ClientSpec = {
  id: 'gemini',
  title: 'Gemini CLI',
  files: {
    user: { file: (place) => path.join(place.home, '.gemini', 'settings.json') },
    project: { file: (place) => path.join(place.cwd, '.gemini', 'settings.json') },
  },
  mapPath: ['mcpServers'],
  comments: true,
  readEntry: (raw) => {
    const entry =
      typeof raw.httpUrl === 'string'
        ? readCommonEntry({ ...raw, url: raw.httpUrl, type: 'http' })
        : readCommonEntry(raw);
    if (typeof entry === 'string') return entry;
    return geminiExtras(
      raw,
      typeof raw.httpUrl !== 'string' && entry.url !== undefined ? { ...entry, type: 'sse' } : entry,
    );
  },
  gatewayEntry: (entry) =>
    entry.kind === 'http' ? { httpUrl: entry.url } : { command: entry.command, args: entry.args, env: entry.env },
  writeEntry: (upstream) => {
    const entry = writeCommonEntry(upstream, { urlKey: upstream.type === 'sse' ? 'url' : 'httpUrl' });
    if (typeof entry === 'string') return entry;
    return {
      ...entry,
      ...(upstream.timeoutMs !== undefined ? { timeout: upstream.timeoutMs } : {}),
      ...(upstream.trust === 'trusted' ? { trust: true } : {}),
    };
  },
};
