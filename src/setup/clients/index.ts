/** The clients `candor setup` knows, by id. */
import type { ClientName } from '../../gateway/client-names.js';
import type { ClientSpec } from '../types.js';
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { cursor } from './cursor.js';
import { gemini } from './gemini.js';
import { vscode } from './vscode.js';

/** Every client, in the order `candor setup` lists them. */
export const CLIENTS: readonly ClientSpec[] = [claudeCode, claudeDesktop, cursor, vscode, gemini];

/** The client of this name (client-names.ts: every name there has a spec here). */
export function clientById(id: ClientName): ClientSpec {
  return CLIENTS.find((client) => client.id === id)!;
}
