/**
 * Which scopes a tool needs, derived from its declared effect by default:
 * read-only tools `tools:read`, additive tools `tools:write`, destructive
 * tools `tools:destructive` (names configurable). A per-tool override (map
 * or function, from `auth.scopes`) or the tool's own `scopes` replaces the
 * derived scope. A caller needs every scope a tool
 * lists; scopes do not imply each other (grant `tools:read tools:write` for
 * both kinds).
 */
import type { Effect, ToolDefinition } from '../tool/types.js';
import type { ScopeNames, ToolScopes } from './types.js';

/** The default names of the effect-derived scopes. */
export const DEFAULT_SCOPE_NAMES: Readonly<Required<ScopeNames>> = Object.freeze({
  read: 'tools:read',
  write: 'tools:write',
  destructive: 'tools:destructive',
});

/**
 * The scopes each tool needs, computed once per tool definition.
 *
 * @example
 * ```ts
 * const policy = new ToolScopePolicy({ scopes: { purge_cache: ['admin'] } });
 * policy.required(readFile); // ['tools:read']
 * ```
 */
export class ToolScopePolicy {
  readonly names: Readonly<Required<ScopeNames>>;
  readonly #overrides: ToolScopes | undefined;
  readonly #cache = new WeakMap<ToolDefinition, readonly string[]>();

  constructor(options: { scopeNames?: ScopeNames; scopes?: ToolScopes } = {}) {
    this.names = Object.freeze({ ...DEFAULT_SCOPE_NAMES, ...definedOnly(options.scopeNames) });
    for (const [kind, name] of Object.entries(this.names)) {
      if (typeof name !== 'string' || !isScopeToken(name)) {
        throw new TypeError(
          `auth.scopeNames.${kind} must be a scope token (printable, no spaces or quotes); got ${JSON.stringify(name)}.`,
        );
      }
    }
    this.#overrides = options.scopes;
    if (this.#overrides !== undefined && typeof this.#overrides === 'object') {
      for (const [tool, scopes] of Object.entries(this.#overrides)) checkScopes(scopes, `auth.scopes["${tool}"]`);
    }
  }

  /** The scope an effect maps to. */
  scopeOf(effect: Effect): string {
    return effect === 'read' ? this.names.read : effect === 'additive' ? this.names.write : this.names.destructive;
  }

  /** Every scope `tool` needs. */
  required(tool: ToolDefinition): readonly string[] {
    let scopes = this.#cache.get(tool);
    if (scopes === undefined) {
      // The deployer's auth.scopes, then the author's defineTool({ scopes }), then the effect.
      const override = this.#override(tool) ?? tool.scopes;
      scopes = Object.freeze(override === undefined ? [this.scopeOf(tool.effect)] : [...override]);
      this.#cache.set(tool, scopes);
    }
    return scopes;
  }

  /** Whether a caller holding `granted` may see and call `tool`. */
  allows(tool: ToolDefinition, granted: ReadonlySet<string>): boolean {
    for (const scope of this.required(tool)) if (!granted.has(scope)) return false;
    return true;
  }

  #override(tool: ToolDefinition): readonly string[] | undefined {
    const overrides = this.#overrides;
    if (overrides === undefined) return undefined;
    if (typeof overrides === 'function') {
      const scopes = overrides(tool);
      if (scopes !== undefined) checkScopes(scopes, `auth.scopes(${tool.name})`);
      return scopes;
    }
    return Object.hasOwn(overrides, tool.name) ? overrides[tool.name] : undefined;
  }
}

/** RFC 6749 §3.3 scope-token: %x21 / %x23-5B / %x5D-7E. */
export function isScopeToken(value: string): boolean {
  return /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(value);
}

function checkScopes(scopes: unknown, where: string): void {
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && isScopeToken(s))) {
    throw new TypeError(`${where} must be a list of scope tokens (printable, no spaces or quotes).`);
  }
}

function definedOnly(names: ScopeNames | undefined): ScopeNames {
  const out: ScopeNames = {};
  if (names?.read !== undefined) out.read = names.read;
  if (names?.write !== undefined) out.write = names.write;
  if (names?.destructive !== undefined) out.destructive = names.destructive;
  return out;
}
