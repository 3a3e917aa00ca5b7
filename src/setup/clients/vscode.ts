/**
 * VS Code: mcp.json in the user settings folder (Code/User) and .vscode/mcp.json in a
 * workspace, a `servers` map in JSON with comments, entries typed "stdio" or "http".
 */
import path from 'node:path';
import type { ClientSpec } from '../types.js';
import { readCommonEntry } from './entries.js';
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
  readEntry: (raw) => readCommonEntry(raw),
  gatewayEntry: (entry) =>
    entry.kind === 'http'
      ? { type: 'http', url: entry.url }
      : { type: 'stdio', command: entry.command, args: entry.args, env: entry.env },
};
