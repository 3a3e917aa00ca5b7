/** Cursor: ~/.cursor/mcp.json (user) and .cursor/mcp.json (project), `mcpServers` entries. */
import path from 'node:path';
import type { ClientSpec } from '../types.js';
import { readCommonEntry, writeCommonEntry } from './entries.js';

/** Cursor's config files and entries. */
export const cursor: ClientSpec = {
  id: 'cursor',
  title: 'Cursor',
  files: {
    user: { file: (place) => path.join(place.home, '.cursor', 'mcp.json') },
    project: { file: (place) => path.join(place.cwd, '.cursor', 'mcp.json') },
  },
  mapPath: ['mcpServers'],
  comments: false,
  readEntry: (raw) => readCommonEntry(raw),
  gatewayEntry: (entry) =>
    entry.kind === 'http' ? { url: entry.url } : { command: entry.command, args: entry.args, env: entry.env },
  writeEntry: (upstream) => writeCommonEntry(upstream),
};
