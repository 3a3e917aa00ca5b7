/**
 * The `tools/list` pages of a registry: listed tools in name order, paged by a
 * keyset cursor (the name of the last tool sent, so a page survives tools being
 * added or removed), and the same pages as JSON text built from per-tool JSON
 * cached at first use, so a list of 10,000 tools is not serialised per request.
 */
import type { ToolDefinition, WireTool } from '../tool/types.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { compareNames } from './search.js';

/** One page of `tools/list`. */
export interface ManifestPage {
  tools: WireTool[];
  nextCursor?: string;
}

/**
 * The cached pages of one registry; `invalidate()` after any change of what is listed.
 *
 * @example
 * ```ts
 * const manifest = new Manifest(() => listedInNameOrder());
 * const first = manifest.page({ limit: 100 });
 * ```
 */
export class Manifest {
  readonly #listedTools: () => ToolDefinition[];
  #listed: ToolDefinition[] | undefined;
  #fullJson: string | undefined;
  readonly #wireJson = new WeakMap<ToolDefinition, string>();

  /** `listed` gives the listed tools in name order; it is asked again after `invalidate()`. */
  constructor(listed: () => ToolDefinition[]) {
    this.#listedTools = listed;
  }

  /** A page as an object. */
  page(options: { cursor?: string; limit?: number } = {}): ManifestPage {
    const listed = this.#tools();
    const { start, end } = this.#bounds(listed, options);
    const page: ManifestPage = { tools: listed.slice(start, end).map((d) => d.wire as WireTool) };
    if (end < listed.length) page.nextCursor = encodeCursor({ after: listed[end - 1]!.name });
    return page;
  }

  /** A page as JSON text. */
  json(options: { cursor?: string; limit?: number } = {}): string {
    const listed = this.#tools();
    if (options.cursor === undefined && (options.limit === undefined || options.limit >= listed.length)) {
      this.#fullJson ??= this.#buildFullJson(listed);
      return this.#fullJson;
    }
    const { start, end } = this.#bounds(listed, options);
    const parts = listed.slice(start, end).map((d) => this.#json(d));
    const next =
      end < listed.length ? `,"nextCursor":${JSON.stringify(encodeCursor({ after: listed[end - 1]!.name }))}` : '';
    return `{"tools":[${parts.join(',')}]${next}}`;
  }

  /** Forget the cached list and full page (a tool's own JSON stays cached by its definition). */
  invalidate(): void {
    this.#listed = undefined;
    this.#fullJson = undefined;
  }

  #tools(): ToolDefinition[] {
    this.#listed ??= this.#listedTools();
    return this.#listed;
  }

  #bounds(
    listed: readonly ToolDefinition[],
    options: { cursor?: string; limit?: number },
  ): { start: number; end: number } {
    let start = 0;
    if (options.cursor !== undefined) {
      const { after } = decodeCursor<{ after: string }>(options.cursor, (v) => typeof v.after === 'string');
      start = upperBound(listed, after);
    }
    const limit = options.limit === undefined ? listed.length : Math.max(1, Math.floor(options.limit));
    return { start, end: Math.min(listed.length, start + limit) };
  }

  /**
   * The one-page manifest. Each tool's cached JSON then becomes a slice of it
   * (V8 keeps a slice as a view into the page), so the text of 10,000 tools is
   * held once, not twice.
   */
  #buildFullJson(listed: readonly ToolDefinition[]): string {
    const parts = listed.map((d) => this.#json(d));
    const head = '{"tools":[';
    const full = `${head}${parts.join(',')}]}`;
    let offset = head.length;
    for (let i = 0; i < listed.length; i++) {
      const length = parts[i]!.length;
      this.#wireJson.set(listed[i]!, full.slice(offset, offset + length));
      offset += length + 1;
    }
    return full;
  }

  #json(def: ToolDefinition): string {
    let json = this.#wireJson.get(def);
    if (json === undefined) {
      json = JSON.stringify(def.wire);
      this.#wireJson.set(def, json);
    }
    return json;
  }
}

/** Index of the first tool whose name sorts after `name` (keyset pagination survives changes). */
function upperBound(listed: readonly ToolDefinition[], name: string): number {
  let lo = 0;
  let hi = listed.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareNames(listed[mid]!.name, name) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
