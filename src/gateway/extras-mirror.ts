/**
 * Serves each upstream's resources and prompts downstream, replacing what that
 * upstream contributed before whenever it (re)connects. A resource URI another
 * upstream already serves is skipped with a warning: URIs are global.
 */
import type { Host } from '../host/host-api.js';
import type { PromptRegistry } from '../prompts/registry.js';
import type { ResourceRegistry } from '../resources/registry.js';
import type { ServerLogger } from '../util/logger.js';
import type { MessageGuard } from './results/message-guard.js';
import { upstreamExtras } from './upstream-extras.js';

/** What an {@link ExtrasMirror} works with. */
export interface ExtrasMirrorOptions {
  host: Host;
  resources: ResourceRegistry;
  prompts: PromptRegistry;
  logger: ServerLogger;
  /** Between server and prompt name (`server__prompt`). */
  separator: string;
  /** The result guards for what resources and prompts return. */
  guard?: MessageGuard | undefined;
}

/**
 * The downstream copy of the upstreams' resources and prompts.
 *
 * @example
 * ```ts
 * const extras = new ExtrasMirror({ host, resources, prompts, logger, separator: '__' });
 * await extras.load('notes');
 * ```
 */
export class ExtrasMirror {
  readonly #options: ExtrasMirrorOptions;
  readonly #of = new Map<string, { resources: string[]; prompts: string[] }>();

  constructor(options: ExtrasMirrorOptions) {
    this.#options = options;
  }

  /** Read one upstream's resources and prompts again and serve them in place of the old ones. */
  async load(server: string): Promise<void> {
    const { host, resources, prompts, logger, separator, guard } = this.#options;
    const client = host.client(server);
    if (!client) return;
    const extras = await upstreamExtras(server, client, separator, guard);
    for (const warning of extras.warnings) logger.warn(warning);
    const previous = this.#of.get(server);
    if (previous) {
      resources.remove(...previous.resources);
      prompts.remove(...previous.prompts);
    }
    const taken = new Set((await resources.list()).resources.map((r) => r.uri));
    const fresh = extras.resources.filter((r) => {
      const key = r.kind === 'resource' ? r.uri : r.uriTemplate;
      if (r.kind === 'resource' && taken.has(key)) {
        logger.warn(`${server}: resource ${key} is served by another upstream already; skipped`);
        return false;
      }
      return true;
    });
    if (fresh.length > 0) resources.add(...fresh);
    if (extras.prompts.length > 0) prompts.add(...extras.prompts);
    this.#of.set(server, {
      resources: fresh.map((r) => (r.kind === 'resource' ? r.uri : r.uriTemplate)),
      prompts: extras.prompts.map((p) => p.name),
    });
  }
}
