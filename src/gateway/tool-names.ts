/**
 * The names the gateway lists its tools under (`"prefix"`):
 * `always` (default) `server__tool`; `never` the upstream's own name (MCP Apps
 * call their tools by the names they were built with), refusing names two
 * servers share; `on-clash` the upstream's name unless another server offers
 * the same one, then both are prefixed. Policy rules, overrides, pins, rate
 * limits and audit keep using `server__tool`: only what the client sees changes.
 */
import type { CatalogTool } from '../host/types.js';

/** How tool names reach the client. */
export type PrefixMode = 'always' | 'never' | 'on-clash';

/** Two servers offering one name under `prefix: "never"`. */
export interface NameClash {
  name: string;
  servers: [string, string];
}

/**
 * Name every offered tool; in `never` mode the first server (in `order`) keeps a shared name and the clash is reported.
 *
 * @example
 * ```ts
 * const { tools, clashes } = downstreamNames(host.offered(), 'on-clash', ['memory', 'files']);
 * tools.get('read_graph'); // memory's tool, listed without a prefix
 * ```
 */
export function downstreamNames(
  offered: readonly CatalogTool[],
  mode: PrefixMode,
  order: readonly string[],
  reserved: ReadonlySet<string> = new Set(),
): { tools: Map<string, CatalogTool>; clashes: NameClash[] } {
  const tools = new Map<string, CatalogTool>();
  const clashes: NameClash[] = [];
  if (mode === 'always') {
    for (const tool of offered) tools.set(tool.name, tool);
    return { tools, clashes };
  }
  const rank = (server: string) => {
    const at = order.indexOf(server);
    return at < 0 ? order.length : at;
  };
  const sorted = [...offered].sort((a, b) => rank(a.server) - rank(b.server));
  const owners = new Map<string, string[]>();
  for (const tool of sorted) {
    const list = owners.get(tool.toolName) ?? [];
    if (!list.includes(tool.server)) list.push(tool.server);
    owners.set(tool.toolName, list);
  }
  for (const tool of sorted) {
    const shared = owners.get(tool.toolName)!.length > 1 || reserved.has(tool.toolName);
    if (mode === 'on-clash') {
      tools.set(shared ? tool.name : tool.toolName, tool);
      continue;
    }
    const first = owners.get(tool.toolName)![0]!;
    if (reserved.has(tool.toolName)) {
      clashes.push({ name: tool.toolName, servers: ['candor gateway', tool.server] });
    } else if (first !== tool.server) {
      clashes.push({ name: tool.toolName, servers: [first, tool.server] });
    } else {
      tools.set(tool.toolName, tool);
    }
  }
  return { tools, clashes };
}

/** The message for clashes under `prefix: "never"`. */
export function clashMessage(clashes: readonly NameClash[]): string {
  const lines = clashes.map((c) => `"${c.name}" is offered by both ${c.servers[0]} and ${c.servers[1]}`);
  return `With "prefix": "never" every tool name must be unique across servers, but ${lines.join('; ')}. Use "prefix": "on-clash" (prefix only the names that clash) or "always", or drop one of the servers.`;
}
