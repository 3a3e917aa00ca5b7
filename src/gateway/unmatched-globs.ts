/**
 * Tool names and globs in the gateway config that match no tool the upstreams offer:
 * a rule, quota, profile or guard setting that silently applies to nothing is usually
 * a typo (`github__delete*` for `github__delete_repo` is fine; `gihtub__*` is not).
 * Checked once the upstreams have listed their tools, and only warned about: a server
 * may add the tool later, and a server that is down has not said what it offers.
 */
import picomatch from 'picomatch';
import type { CatalogTool } from '../host/types.js';
import type { GatewayOptions } from './types.js';

interface Selector {
  /** Where it is in the config: `quotas[0].tools[1]`. */
  at: string;
  glob: string;
  /** Only tools of this server (a server's own `results.tools`, matched on its tool names too). */
  server?: string;
}

/**
 * The warnings for globs that match none of `tools` (each names the config path and the glob).
 * `down` are servers whose tools are not known yet: a glob that could name one of theirs is not judged.
 *
 * @example
 * ```ts
 * unmatchedGlobs({ servers, quotas: [{ tools: ['gihtub__*'], max: 5, windowMs: 60000 }] }, host.catalog(), []);
 * // ['quotas[0].tools[0] "gihtub__*" matches no tool of the upstreams; check the name.']
 * ```
 */
export function unmatchedGlobs(
  options: GatewayOptions,
  tools: readonly CatalogTool[],
  down: readonly string[],
): string[] {
  const warnings: string[] = [];
  for (const selector of selectorsOf(options)) {
    const match = picomatch(selector.glob, { dot: true });
    const candidates = selector.server === undefined ? tools : tools.filter((t) => t.server === selector.server);
    // The downstream name may be the server's own (prefix "never" / "on-clash"): either counts.
    if (candidates.some((t) => match(t.name) || match(t.toolName))) continue;
    const unknown = selector.server === undefined ? down : down.filter((name) => name === selector.server);
    if (unknown.length > 0) continue;
    warnings.push(`${selector.at} ${JSON.stringify(selector.glob)} matches no tool of the upstreams; check the name.`);
  }
  return warnings;
}

function selectorsOf(options: GatewayOptions): Selector[] {
  const out: Selector[] = [];
  const add = (at: string, globs: readonly string[] | string | undefined, server?: string) => {
    if (globs === undefined) return;
    [globs].flat().forEach((glob, i) => {
      out.push({ at: typeof globs === 'string' ? at : `${at}[${i}]`, glob, ...(server ? { server } : {}) });
    });
  };
  const policy = options.policy;
  if (typeof policy === 'object')
    (policy.rules ?? []).forEach((rule, i) => {
      add(`policy.rules[${i}].tools`, rule.tools);
    });
  (options.quotas ?? []).forEach((quota, i) => {
    add(`quotas[${i}].tools`, quota.tools);
  });
  for (const [name, profile] of Object.entries(options.profiles ?? {})) add(`profiles.${name}.tools`, profile.tools);
  add('alwaysList', options.alwaysList);
  for (const glob of Object.keys(options.commandTools ?? {})) add(`commandTools.${glob}`, glob);
  for (const name of Object.keys(options.rateLimits?.tools ?? {})) add(`rateLimits.tools.${name}`, name);
  for (const [server, config] of Object.entries(options.servers))
    for (const glob of Object.keys(config.results?.tools ?? {}))
      add(`servers.${server}.results.tools.${glob}`, glob, server);
  return out;
}
