/**
 * VS Code: mcp.json in the user settings folder (Code/User) and .vscode/mcp.json in a
 * workspace, a `servers` map in JSON with comments, entries typed "stdio" or "http".
 * An entry's `envFile` is read by setup (its variables join the entry's `env`); the
 * top-level `inputs` stay in the file, untouched.
 */
import path from 'node:path';
import type { ClientSpec } from '../types.js';
import { readCommonEntry, writeCommonEntry } from './entries.js';
import { appSettings } from './paths.js';

/** VS Code's config files and entries. */
export const vscode: ClientSpec = {
  id: 'vscode',
  title: 'VS Code',
  files: {
    user: { file: (place) => path.join(appSettings(place), 'Code', 'User', 'mcp.json') },
    project: { file: (place) => path.join(place.cwd, '.vscode', 'mcp.json') },
  },
  mapPath: ['servers'],
  comments: true,
  readEntry: (raw) => {
    if (raw.envFile !== undefined && typeof raw.envFile !== 'string') return '"envFile" must be a path';
    const entry = readCommonEntry(raw);
    if (typeof entry === 'string' || typeof raw.envFile !== 'string') return entry;
    if (entry.command === undefined) return '"envFile" applies to stdio servers ("command") only';
    return { ...entry, envFile: raw.envFile };
  },
  gatewayEntry: (entry) =>
    entry.kind === 'http'
      ? { type: 'http', url: entry.url }
      : { type: 'stdio', command: entry.command, args: entry.args, env: entry.env },
  writeEntry: (upstream) => writeCommonEntry(upstream, { typed: true }),
};
