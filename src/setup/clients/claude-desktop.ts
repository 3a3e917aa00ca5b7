/**
 * Claude Desktop: one user file, claude_desktop_config.json in the app's settings
 * folder; it starts stdio servers only (remote servers are added in the app).
 */
import path from 'node:path';
import type { ClientSpec } from '../types.js';
import { readCommonEntry, writeCommonEntry } from './entries.js';
import { appSettings } from './paths.js';

/** Claude Desktop's config file and entries. */
export const claudeDesktop: ClientSpec = {
  id: 'claude-desktop',
  title: 'Claude Desktop',
  files: { user: { file: (place) => path.join(appSettings(place), 'Claude', 'claude_desktop_config.json') } },
  mapPath: ['mcpServers'],
  comments: false,
  readEntry: (raw) => readCommonEntry(raw),
  gatewayEntry: (entry) =>
    entry.kind === 'http'
      ? 'Claude Desktop starts stdio servers only; run setup without --http'
      : { command: entry.command, args: entry.args, env: entry.env },
  writeEntry: (upstream) => writeCommonEntry(upstream, { remote: false }),
};
