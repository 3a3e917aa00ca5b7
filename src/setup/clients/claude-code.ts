/**
 * Claude Code: user scope in ~/.claude.json (`mcpServers` beside the app's other
 * state), local scope in the same file under `projects["<project folder>"].mcpServers`
 * (the default of `claude mcp add`), project scope in `.mcp.json` at the project root.
 * Entries carry `type` ("stdio" or "http").
 */
import path from 'node:path';
import type { ClientSpec } from '../types.js';
import { claudeProjectFolder } from './claude-project.js';
import { readCommonEntry, writeCommonEntry } from './entries.js';

/** Claude Code's config files and entries. */
export const claudeCode: ClientSpec = {
  id: 'claude-code',
  title: 'Claude Code',
  files: {
    user: { file: (place) => path.join(place.home, '.claude.json') },
    project: { file: (place) => path.join(place.cwd, '.mcp.json') },
    local: {
      file: (place) => path.join(place.home, '.claude.json'),
      perProject: { key: 'projects', folder: claudeProjectFolder },
    },
  },
  mapPath: ['mcpServers'],
  comments: false,
  readEntry: (raw) => readCommonEntry(raw),
  gatewayEntry: (entry) =>
    entry.kind === 'http'
      ? { type: 'http', url: entry.url }
      : { type: 'stdio', command: entry.command, args: entry.args, env: entry.env },
  writeEntry: (upstream) => writeCommonEntry(upstream, { typed: true }),
};
