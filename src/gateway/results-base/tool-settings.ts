/**
 * Which result-guard settings apply to one tool: the gateway's, then its server's,
 * then the server's `tools` entries that match it, least specific first, so the most
 * specific says last. Each kind is decided on its own: `{ "fetch_*": { "secrets":
 * "block" } }` and `{ "fetch_raw": { "injection": "off" } }` both apply to `fetch_raw`.
 */
import picomatch from 'picomatch';
import type { ResultGuardSettings, ServerResultSettings } from './types.js';

/** The tool as the settings see it: its server, its name there, and its catalog name (`server__tool`). */
export interface SettingsTool {
  server: string;
  toolName: string;
  name: string;
}

interface ToolEntry {
  settings: ResultGuardSettings;
  matches: (tool: SettingsTool) => boolean;
  /** Higher is more specific: an exact name beats every glob; a glob with more literal characters beats one with fewer. */
  rank: number;
  order: number;
}

/**
 * How specific a tool name or glob is: exact names first, then globs by how many
 * literal characters they hold (`fetch_*` over `f*`).
 *
 * @example
 * ```ts
 * specificity('fetch_page') > specificity('fetch_*'); // true
 * ```
 */
export function specificity(glob: string): number {
  if (!picomatch.scan(glob).isGlob) return Number.MAX_SAFE_INTEGER;
  return glob.replace(/\\./g, 'x').replace(/[*?[\]{}()!+@|]/g, '').length;
}

/**
 * Make the lookup; each tool's answer is worked out once and kept.
 *
 * @example
 * ```ts
 * const settingsFor = toolResultSettings({ gateway: { injection: 'annotate' }, server: (n) => servers[n]?.results });
 * settingsFor({ server: 'web', toolName: 'fetch_page', name: 'web__fetch_page' }); // { injection: 'block', … }
 * ```
 */
export function toolResultSettings(options: {
  gateway?: ResultGuardSettings | undefined;
  server: (name: string) => ServerResultSettings | undefined;
}): (tool: SettingsTool) => ResultGuardSettings {
  const entries = new Map<string, ToolEntry[]>();
  const entriesOf = (server: string): ToolEntry[] => {
    let list = entries.get(server);
    if (list === undefined) {
      list = Object.entries(options.server(server)?.tools ?? {})
        .map(([glob, settings], order) => {
          const match = picomatch(glob, { dot: true });
          return {
            settings,
            matches: (tool: SettingsTool) => match(tool.toolName) || match(tool.name),
            rank: specificity(glob),
            order,
          };
        })
        // Least specific first; of two as specific, the one written first is applied last and wins.
        .sort((a, b) => a.rank - b.rank || b.order - a.order);
      entries.set(server, list);
    }
    return list;
  };
  const cache = new Map<string, ResultGuardSettings>();
  return (tool) => {
    const key = `${tool.server}\u0000${tool.name}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    const { tools: _tools, ...server } = options.server(tool.server) ?? {};
    let settings: ResultGuardSettings = { ...options.gateway, ...server };
    for (const entry of entriesOf(tool.server)) if (entry.matches(tool)) settings = { ...settings, ...entry.settings };
    cache.set(key, settings);
    return settings;
  };
}
