/**
 * `candor gateway --print-config <client>`: the one entry a person puts in
 * their client's config in place of the servers the gateway now fronts. The
 * command is the one the CLI chose to start candor by (`candor` on PATH, `npx -y
 * candor@<version>`, or a checkout's absolute path), so it runs from any folder.
 */
import { CLIENT_IDS, type ClientName } from './client-names.js';

/** Clients `--print-config` knows (the names of client-names.ts; aliases are taken too). */
export const CLIENTS = CLIENT_IDS;
export type { ClientName };

/** How the client reaches the gateway: it spawns it (stdio) or connects to a running one (HTTP). */
export type GatewayLaunch = { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string };

/** The server name used in client configs (Claude Code reserves "workspace"; this one is accepted everywhere). */
export const CLIENT_ENTRY_NAME = 'candor-gateway';

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The config text or command for one client.
 *
 * @example
 * ```ts
 * printConfig('claude-code', { kind: 'http', url: 'http://127.0.0.1:4000/mcp' });
 * // 'claude mcp add --transport http candor-gateway http://127.0.0.1:4000/mcp'
 * ```
 */
export function printConfig(client: ClientName, launch: GatewayLaunch, entryName = CLIENT_ENTRY_NAME): string {
  const name = entryName;
  const line = launch.kind === 'stdio' ? [launch.command, ...launch.args].map(shellQuote).join(' ') : '';
  switch (client) {
    case 'claude-code':
      return launch.kind === 'http'
        ? `claude mcp add --transport http ${name} ${launch.url}`
        : `claude mcp add ${name} -- ${line}`;
    case 'gemini':
      return launch.kind === 'http'
        ? `gemini mcp add --transport http ${name} ${launch.url}`
        : `gemini mcp add ${name} ${line}`;
    case 'claude-desktop':
      if (launch.kind === 'http')
        return 'Claude Desktop starts stdio servers only: print the config without --http, or add the URL in the app (Settings, Connectors).';
      return `${JSON.stringify({ mcpServers: { [name]: { command: launch.command, args: launch.args } } }, null, 2)}\n(in claude_desktop_config.json, in place of the servers the gateway now fronts)`;
    case 'cursor':
      return `${JSON.stringify(
        {
          mcpServers: {
            [name]: launch.kind === 'http' ? { url: launch.url } : { command: launch.command, args: launch.args },
          },
        },
        null,
        2,
      )}\n(in .cursor/mcp.json or ~/.cursor/mcp.json, in place of the servers the gateway now fronts)`;
    case 'vscode':
      return `${JSON.stringify(
        {
          servers: {
            [name]:
              launch.kind === 'http'
                ? { type: 'http', url: launch.url }
                : { type: 'stdio', command: launch.command, args: launch.args },
          },
        },
        null,
        2,
      )}\n(in .vscode/mcp.json, in place of the servers the gateway now fronts)`;
  }
}
