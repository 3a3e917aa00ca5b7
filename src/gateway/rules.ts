/**
 * Per-person rules in Cedar (issue 22): `--rules FILE.cedar`, evaluated with
 * `@cedar-policy/cedar-wasm` against the shipped schema
 * (docs/cedar/candor.cedarschema). Principal `User::"<sub>"` (groups from a
 * token claim, client id, scopes; `User::"local"` without auth), resource
 * `Tool::"<server>__<tool>"` with the *tightened* hints, actions `call` (not
 * permitted: not listed, and refused) and `call_unconfirmed` (permitted: no
 * confirmation). Rules add per-person decisions to the host's policy; they
 * never relax a deny of it. Decisions are cached per (person, tool version).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ToolScope, ToolSource } from '../engine/engine.js';
import { CandorError } from '../errors.js';
import type { AuthInfo, ToolDefinition } from '../tool/types.js';
import { principalKey } from '../transports/http/authorizer.js';
import { FilteredTools } from './profiles.js';
import { GATEWAY_META_KEY } from './proxy-tool.js';
import { FIND_TOOLS } from './tool-search.js';

type Cedar = typeof import('@cedar-policy/cedar-wasm/nodejs');
type DetailedError = { message: string; help: string | null; sourceLocations?: Array<{ start: number }> };

/** Where the shipped schema is (docs/cedar/candor.cedarschema in the package). */
export const RULES_SCHEMA_FILE = 'docs/cedar/candor.cedarschema';
const CACHE_LIMIT = 100_000;

/** Who a request is, for the rules. */
export interface RulesPrincipal {
  id: string;
  groups: string[];
  client: string;
  scopes: string[];
}

/**
 * The principal of a request: the token's subject, groups (from `groupsClaim`), client and scopes.
 *
 * @example
 * ```ts
 * principalOf(ctx.auth, 'groups'); // { id: 'alice', groups: ['dev'], client: 'cli', scopes: ['tools:read'] }
 * ```
 */
export function principalOf(auth: AuthInfo | undefined, groupsClaim = 'groups'): RulesPrincipal {
  if (auth === undefined) return { id: 'local', groups: [], client: '', scopes: [] };
  const claim = auth.claims?.[groupsClaim];
  const groups = Array.isArray(claim)
    ? claim.filter((g): g is string => typeof g === 'string')
    : typeof claim === 'string'
      ? claim.split(/\s+/).filter((g) => g.length > 0)
      : [];
  return {
    id: auth.subject ?? auth.clientId ?? 'unknown',
    groups,
    client: auth.clientId ?? '',
    scopes: [...(auth.scopes ?? [])],
  };
}

/** Loaded, validated rules. */
export class GatewayRules {
  readonly #cedar: Cedar;
  readonly #setId: string;
  readonly #groupsClaim: string;
  readonly #cache = new Map<string, boolean>();

  private constructor(cedar: Cedar, setId: string, groupsClaim: string) {
    this.#cedar = cedar;
    this.#setId = setId;
    this.#groupsClaim = groupsClaim;
  }

  /**
   * Read, parse and validate a rules file against the shipped schema; a mistake
   * throws with Cedar's message and the line and column.
   *
   * @example
   * ```ts
   * const rules = await GatewayRules.load('team.cedar');
   * rules.permits(principalOf(undefined), tool, 'call');
   * ```
   */
  static async load(file: string, options: { groupsClaim?: string } = {}): Promise<GatewayRules> {
    const absolute = path.resolve(file);
    let text: string;
    try {
      text = await readFile(absolute, 'utf8');
    } catch (error) {
      throw new CandorError(`Cannot read the rules file ${absolute}: ${(error as Error).message}`, {
        code: 'invalid_rules',
        cause: error,
      });
    }
    return GatewayRules.fromText(text, absolute, options);
  }

  /** The same as {@link load} for rules text; `file` names it in errors. */
  static async fromText(text: string, file: string, options: { groupsClaim?: string } = {}): Promise<GatewayRules> {
    const cedar = loadCedar();
    const schema = await readFile(schemaPath(), 'utf8');
    const fail = (errors: DetailedError[]): never => {
      const lines = errors.map((e) => {
        const at = e.sourceLocations?.[0]?.start;
        const where = at === undefined ? file : `${file}:${lineAndColumn(text, at)}`;
        return `${where}: ${e.message}${e.help ? ` (${e.help})` : ''}`;
      });
      throw new CandorError(`The rules do not hold against candor's Cedar schema:\n${lines.join('\n')}`, {
        code: 'invalid_rules',
      });
    };
    const parsed = cedar.checkParsePolicySet({ staticPolicies: text });
    if (parsed.type === 'failure') fail(parsed.errors);
    const validated = cedar.validate({ schema, policies: { staticPolicies: text } });
    if (validated.type === 'failure') fail(validated.errors);
    else if (validated.validationErrors.length > 0) fail(validated.validationErrors.map((e) => e.error));
    const setId = `candor-rules-${++loaded}`;
    const prepared = cedar.preparsePolicySet(setId, { staticPolicies: text });
    if (prepared.type === 'failure') fail(prepared.errors);
    return new GatewayRules(cedar, setId, options.groupsClaim ?? 'groups');
  }

  /** The principal of a request's auth (groups from the configured claim). */
  principal(auth: AuthInfo | undefined): RulesPrincipal {
    return principalOf(auth, this.#groupsClaim);
  }

  /** Whether the rules permit `action` on a tool (as listed downstream: hints tightened) for a principal. */
  permits(principal: RulesPrincipal, tool: ToolDefinition, action: 'call' | 'call_unconfirmed'): boolean {
    if (tool.name === FIND_TOOLS) return true;
    const meta = tool.meta?.[GATEWAY_META_KEY] as
      | { server?: string; tool?: string; trust?: string; pin?: string }
      | undefined;
    const server = meta?.server ?? '';
    const name = meta?.tool ?? tool.name;
    const hints = tool.hints;
    const trusted = meta?.trust === 'trusted';
    const key = `${action}\u0000${principal.id}\u0000${principal.groups.join(',')}\u0000${principal.client}\u0000${principal.scopes.join(',')}\u0000${server}\u0000${name}\u0000${+hints.readOnlyHint}${+hints.destructiveHint}${+hints.idempotentHint}${+hints.openWorldHint}${+trusted}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const id = server === '' ? name : `${server}__${name}`;
    const answer = this.#cedar.statefulIsAuthorized({
      principal: { type: 'User', id: principal.id },
      action: { type: 'Action', id: action },
      resource: { type: 'Tool', id },
      context: {},
      preparsedPolicySetId: this.#setId,
      entities: [
        {
          uid: { type: 'User', id: principal.id },
          attrs: { groups: principal.groups, client: principal.client, scopes: principal.scopes },
          parents: [],
        },
        {
          uid: { type: 'Tool', id },
          attrs: {
            server,
            name,
            readOnly: hints.readOnlyHint,
            destructive: hints.destructiveHint,
            idempotent: hints.idempotentHint,
            openWorld: hints.openWorldHint,
            trusted,
          },
          parents: [],
        },
      ],
    });
    // An evaluation error is a deny (fail closed).
    const allowed = answer.type === 'success' && answer.response.decision === 'allow';
    if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
    this.#cache.set(key, allowed);
    return allowed;
  }

  /**
   * A `toolScope` layer: what each person may call, then `inner` (a profile, search mode) on that.
   *
   * @example
   * ```ts
   * createServer({ registry, toolScope: rules.scope(registry, () => registry.version, search?.scope) });
   * ```
   */
  scope(tools: ToolSource, version: () => number, inner: ToolScope | undefined): ToolScope {
    const views = new Map<string, WeakMap<ToolSource, FilteredTools>>();
    return (request) => {
      const principal = this.principal(request.info?.auth);
      const key = `${principalKey(request.info?.auth)}\u0000${principal.groups.join(',')}\u0000${principal.scopes.join(',')}`;
      const source = request.info?.tools ?? tools;
      let byPerson = views.get(key);
      if (byPerson === undefined) {
        if (views.size >= 10_000) views.clear();
        byPerson = new WeakMap();
        views.set(key, byPerson);
      }
      let view = byPerson.get(source);
      if (view === undefined) {
        view = new FilteredTools(
          source,
          (tool) => this.permits(principal, tool, 'call'),
          version,
          (name) =>
            source.get(name) === undefined
              ? undefined
              : `Tool ${name} is not permitted to User::"${principal.id}" by the gateway's rules.`,
        );
        byPerson.set(source, view);
      }
      const info = { ...request.info, tools: view };
      return inner === undefined ? view : (inner({ ...request, info }) ?? view);
    };
  }
}

let loaded = 0;

function loadCedar(): Cedar {
  const require = createRequire(import.meta.url);
  try {
    return require('@cedar-policy/cedar-wasm/nodejs') as Cedar;
  } catch (error) {
    throw new CandorError(
      `--rules needs @cedar-policy/cedar-wasm, which could not be loaded: ${(error as Error).message}`,
      { code: 'invalid_rules', cause: error },
    );
  }
}

/** The shipped schema, found from this file in src/ (tests) or dist/src/ (the package). */
function schemaPath(): string {
  const here = path.dirname(new URL(import.meta.url).pathname);
  const up = here.includes(`${path.sep}dist${path.sep}`) ? '../../..' : '../..';
  return path.resolve(here, up, RULES_SCHEMA_FILE);
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `${line}:${column}`;
}
