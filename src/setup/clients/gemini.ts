/**
 * Gemini CLI: ~/.gemini/settings.json (user) and .gemini/settings.json (project), an
 * `mcpServers` map; `httpUrl` is Streamable HTTP and `url` the older SSE transport.
 */
import path from 'node:path';
import type { ClientSpec } from '../types.js';
import { readCommonEntry } from './entries.js';

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
    if (typeof raw.httpUrl === 'string') return readCommonEntry({ ...raw, url: raw.httpUrl, type: 'http' });
    const entry = readCommonEntry(raw);
    return typeof entry !== 'string' && entry.url !== undefined ? { ...entry, type: 'sse' } : entry;
  },
  gatewayEntry: (entry) =>
    entry.kind === 'http' ? { httpUrl: entry.url } : { command: entry.command, args: entry.args, env: entry.env },
};
