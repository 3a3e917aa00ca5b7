/**
 * Keeps the gateway's downstream tool list equal to what the host offers and the
 * door admits: one proxy tool per offered upstream tool, under its downstream name,
 * rebuilt when its definition, hints, pin status or trust change. A flood of
 * list_changed from one upstream becomes at most one downstream change per window.
 */
import type { Host } from '../host/host-api.js';
import type { CatalogTool } from '../host/types.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { ToolDefinition } from '../tool/types.js';
import type { ServerLogger } from '../util/logger.js';
import type { Door } from './door.js';
import type { UpstreamStatus } from './status.js';
import type { PrefixMode } from './tool-names.js';
import { clashMessage, downstreamNames, type NameClash } from './tool-names.js';

/** What a {@link CatalogSync} works with. */
export interface CatalogSyncOptions {
  host: Host;
  door: Door;
  registry: ToolRegistry;
  /** `"always"` namespaces every tool `server__tool`; `"never"` refuses clashes. */
  prefix: PrefixMode;
  /** The servers in config order: the earlier one keeps a clashing name. */
  order: readonly string[];
  /** Names the gateway uses itself (find_tools). */
  reserved: ReadonlySet<string>;
  upstream: ReadonlyMap<string, UpstreamStatus>;
  logger: ServerLogger;
  /** The proxy tool that serves an upstream tool under its downstream name. */
  proxy: (tool: CatalogTool, name: string) => ToolDefinition;
  /** How long a burst of changes is gathered before one sync (default 100 ms). */
  windowMs?: number;
}

/**
 * The downstream list, kept in step with the host.
 *
 * @example
 * ```ts
 * const catalog = new CatalogSync({ host, door, registry, prefix: 'always', order, reserved, upstream, logger, proxy });
 * catalog.sync();
 * host.on('tools-changed', () => catalog.schedule());
 * ```
 */
export class CatalogSync {
  readonly #options: CatalogSyncOptions;
  /** Downstream name → the key of the upstream tool it was built from. */
  readonly #defined = new Map<string, string>();
  #clashes: NameClash[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: CatalogSyncOptions) {
    this.#options = options;
  }

  /** Names two servers offer under prefix "never" (the later one is not listed). */
  get clashes(): readonly NameClash[] {
    return this.#clashes;
  }

  /** Bring the downstream list up to date now. */
  sync(): void {
    const { host, door, registry, prefix, order, reserved, logger, proxy } = this.#options;
    door.review();
    const named = downstreamNames(
      host.offered().filter((tool) => door.admits(tool)),
      prefix,
      order,
      reserved,
    );
    const offered = named.tools;
    const known = this.#clashes;
    const fresh = named.clashes.filter((c) => !known.some((o) => o.name === c.name && o.servers[1] === c.servers[1]));
    if (fresh.length > 0) logger.error(`${clashMessage(fresh)} Until then the later server's tool is not listed.`);
    this.#clashes = named.clashes;
    const remove: string[] = [];
    const add: ToolDefinition[] = [];
    for (const name of this.#defined.keys()) if (!offered.has(name)) remove.push(name);
    for (const [name, tool] of offered) {
      const key = `${tool.name}|${tool.hash}|${JSON.stringify(tool.hints)}|${tool.pin.status}|${tool.trust}`;
      if (this.#defined.get(name) === key) continue;
      try {
        add.push(proxy(tool, name));
        if (this.#defined.has(name)) remove.push(name);
        this.#defined.set(name, key);
      } catch (error) {
        logger.warn(`tool ${name} cannot be served: ${(error as Error).message}`);
      }
    }
    for (const name of remove) if (!offered.has(name)) this.#defined.delete(name);
    if (remove.length > 0 || add.length > 0) registry.replace({ remove, add });
    for (const state of this.#options.upstream.values()) {
      state.tools = host.catalog().filter((t) => t.server === state.name).length;
    }
  }

  /** Sync once the current window closes (changes arriving meanwhile join that one sync). */
  schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.sync();
    }, this.#options.windowMs ?? 100);
  }

  /** Drop a pending sync. */
  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
