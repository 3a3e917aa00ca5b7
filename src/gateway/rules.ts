/**
 * Per-person rules in Cedar: `--rules FILE.cedar`, evaluated with
 * `@cedar-policy/cedar-wasm` against the shipped schema
 * (docs/cedar/candor.cedarschema). Principal `User::"<sub>"` (groups from a
 * token claim, client id, scopes; `User::"local"` without auth), resource
 * `Tool::"<server>__<tool>"` with the *tightened* hints, actions `call` (not
 * permitted: not listed, and refused) and `call_unconfirmed` (permitted: no
 * confirmation). Rules add per-person decisions to the host's policy; they
 * never relax a deny of it. Cedar is asked once per class of requests that
 * agree on everything the rules read (rules-reads.ts); the rest are map lookups.
 * The file is read again when it changes (`reload`).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ToolScope } from '../engine/engine.js';
import { CandorError } from '../errors.js';
import type { ToolSource } from '../pipeline/types.js';
import type { AuthInfo, ToolDefinition } from '../tool/types.js';
import { principalKey } from '../transports/http/authorizer.js';
import { avoidWasmInliningFault } from '../util/wasm-inlining.js';
import { type IdentityClaimNames, LOCAL_PRINCIPAL, principalOf, type RulesPrincipal } from './identity-claims.js';
import { FilteredTools } from './profiles.js';
import { GATEWAY_META_KEY } from './proxy-tool.js';
import { type EntityReads, type RulesReads, readsOf } from './rules-reads.js';
import { FIND_TOOLS } from './tool-search.js';

type Cedar = typeof import('@cedar-policy/cedar-wasm/nodejs');
type DetailedError = { message: string; help: string | null; sourceLocations?: Array<{ start: number }> };

/** Where the shipped schema is (docs/cedar/candor.cedarschema in the package). */
export const RULES_SCHEMA_FILE = 'docs/cedar/candor.cedarschema';
const CACHE_LIMIT = 100_000;

export { principalOf, type RulesPrincipal };

type Action = 'call' | 'call_unconfirmed';

/** One loaded rules file: its policy set in cedar-wasm, what it reads, and the decisions made so far. */
interface RulesState {
  readonly setId: string;
  readonly reads: RulesReads;
  /** Decisions by person class, then by action and tool class (see rules-reads.ts). */
  readonly decided: Map<string, Record<Action, Map<string, boolean>>>;
  size: number;
  /** The class of each principal and tool object seen (both are made once and not changed). */
  readonly personKeys: WeakMap<RulesPrincipal, string>;
  readonly toolKeys: WeakMap<ToolDefinition, string>;
}

/** Loaded, validated rules. */
export class GatewayRules {
  readonly #cedar: Cedar;
  readonly #claims: IdentityClaimNames;
  readonly #file: string;
  #state: RulesState;
  #generation = 0;
  #evaluations = 0;
  readonly #principals = new WeakMap<AuthInfo, RulesPrincipal>();

  private constructor(cedar: Cedar, state: RulesState, claims: IdentityClaimNames, file: string) {
    this.#cedar = cedar;
    this.#state = state;
    this.#claims = claims;
    this.#file = file;
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
  static async load(file: string, options: IdentityClaimNames = {}): Promise<GatewayRules> {
    const absolute = path.resolve(file);
    return GatewayRules.fromText(await readRules(absolute), absolute, options);
  }

  /** The same as {@link load} for rules text; `file` names it in errors. */
  static async fromText(text: string, file: string, options: IdentityClaimNames = {}): Promise<GatewayRules> {
    const cedar = loadCedar();
    return new GatewayRules(cedar, await prepare(cedar, text, file), options, file);
  }

  /**
   * Read the rules file again (it changed on disk). Valid rules replace the old
   * ones at once, with none of their decisions; a file that does not validate
   * throws, and the rules in force stay.
   *
   * @example
   * ```ts
   * watchFile(file, () => rules.reload().then(tellClients, (error) => logger.error(error.message)));
   * ```
   */
  async reload(): Promise<void> {
    const state = await prepare(this.#cedar, await readRules(this.#file), this.#file);
    const old = this.#state;
    this.#state = state;
    this.#generation++;
    // The old policy set leaves cedar-wasm's store (an empty set under the same id).
    this.#cedar.preparsePolicySet(old.setId, { staticPolicies: '' });
  }

  /** Changes whenever the rules do (a reload): part of the version of every list they filter. */
  get generation(): number {
    return this.#generation;
  }

  /** How many times Cedar itself was asked (the rest were answered from decisions already made). */
  get evaluations(): number {
    return this.#evaluations;
  }

  /** What the rules read of people and tools (decisions are shared by requests that agree on it). */
  get reads(): RulesReads {
    return this.#state.reads;
  }

  /** The principal of a request's auth (groups from the configured claim); one object per auth object. */
  principal(auth: AuthInfo | undefined): RulesPrincipal {
    if (auth === undefined) return LOCAL_PRINCIPAL;
    let principal = this.#principals.get(auth);
    if (principal === undefined) {
      principal = principalOf(auth, this.#claims.groupsClaim, this.#claims.departmentClaim);
      this.#principals.set(auth, principal);
    }
    return principal;
  }

  /**
   * Whether the rules permit `action` on a tool (as listed downstream: hints
   * tightened) for a principal. Cedar is asked once per class of requests that
   * agree on everything the rules read; the rest is a map lookup.
   */
  permits(principal: RulesPrincipal, tool: ToolDefinition, action: Action): boolean {
    if (tool.name === FIND_TOOLS) return true;
    const state = this.#state;
    let who = state.personKeys.get(principal);
    if (who === undefined) {
      who = personKey(state.reads.principal, principal);
      state.personKeys.set(principal, who);
    }
    let decided = state.decided.get(who);
    if (decided === undefined) {
      if (state.size >= CACHE_LIMIT) {
        state.decided.clear();
        state.size = 0;
      }
      decided = { call: new Map(), call_unconfirmed: new Map() };
      state.decided.set(who, decided);
    }
    let what = state.toolKeys.get(tool);
    if (what === undefined) {
      what = toolKey(state.reads.resource, toolFacts(tool));
      state.toolKeys.set(tool, what);
    }
    const byTool = decided[action];
    const known = byTool.get(what);
    if (known !== undefined) return known;
    const allowed = this.#evaluate(state, principal, toolFacts(tool), action);
    byTool.set(what, allowed);
    state.size++;
    return allowed;
  }

  /**
   * Evaluate made-up requests in small slices between other work, so V8 has
   * optimised cedar-wasm's code before people arrive: until then its tier-up
   * stalls an evaluation for 4–17 ms about once in 20, for the first ~500
   * evaluations of a process (measured on this 2-core machine; with the
   * optimising compiler from the start the stalls are gone). Once per process.
   *
   * @example
   * ```ts
   * void rules.warmUp({ signal: closing.signal });
   * ```
   */
  async warmUp(options: { evaluations?: number; signal?: AbortSignal } = {}): Promise<void> {
    if (warmedUp) return;
    warmedUp = true;
    const { evaluations = 600, signal } = options;
    const person: RulesPrincipal = {
      id: 'candor-warm-up',
      groups: ['dev'],
      department: '',
      client: 'candor',
      scopes: ['tools:read'],
    };
    for (let i = 0; i < evaluations && signal?.aborted !== true; i++) {
      const tool: ToolFacts = {
        id: `warm__up${i}`,
        server: 'warm',
        name: `up${i}`,
        readOnly: i % 2 === 0,
        destructive: i % 3 === 0,
        idempotent: i % 5 === 0,
        openWorld: i % 7 === 0,
        trusted: i % 11 === 0,
      };
      this.#evaluate(this.#state, person, tool, i % 2 === 0 ? 'call' : 'call_unconfirmed', false);
      if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  #evaluate(state: RulesState, principal: RulesPrincipal, tool: ToolFacts, action: string, count = true): boolean {
    if (count) this.#evaluations++;
    const answer = this.#cedar.statefulIsAuthorized({
      principal: { type: 'User', id: principal.id },
      action: { type: 'Action', id: action },
      resource: { type: 'Tool', id: tool.id },
      context: {},
      preparsedPolicySetId: state.setId,
      entities: [
        {
          uid: { type: 'User', id: principal.id },
          attrs: {
            groups: principal.groups,
            department: principal.department,
            client: principal.client,
            scopes: principal.scopes,
          },
          parents: [],
        },
        {
          uid: { type: 'Tool', id: tool.id },
          attrs: {
            server: tool.server,
            name: tool.name,
            readOnly: tool.readOnly,
            destructive: tool.destructive,
            idempotent: tool.idempotent,
            openWorld: tool.openWorld,
            trusted: tool.trusted,
          },
          parents: [],
        },
      ],
    });
    // An evaluation error is a deny (fail closed).
    return answer.type === 'success' && answer.response.decision === 'allow';
  }

  /**
   * A `toolScope` layer: what each person may call, then `inner` (a profile, search mode) on that.
   *
   * @example
   * ```ts
   * createServer({ registry, toolScope: rules.scope(registry, () => registry.version, search?.scope) });
   * ```
   */
  scope(tools: ToolSource, version: () => number | string, inner: ToolScope | undefined): ToolScope {
    const views = new Map<string, WeakMap<ToolSource, FilteredTools>>();
    // A list is cached until the tools or the rules change.
    const listVersion = () => `${version()}.${this.#generation}`;
    return (request) => {
      const principal = this.principal(request.info?.auth);
      // JSON: a group named "a,b" is not the groups "a" and "b".
      const key = JSON.stringify([
        principalKey(request.info?.auth),
        principal.groups,
        principal.scopes,
        principal.client,
      ]);
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
          (tool) => {
            if (!this.permits(principal, tool, 'call')) return false;
            // Listing decides both actions, so a call of a listed tool is map lookups only.
            this.permits(principal, tool, 'call_unconfirmed');
            return true;
          },
          listVersion,
          (name) =>
            source.get(name) === undefined
              ? undefined
              : `Tool ${name} is not permitted to User::"${principal.id}" by the gateway's rules.`,
        );
        byPerson.set(source, view);
      }
      if (inner === undefined) return view;
      const scoped = inner({ ...request, info: { ...request.info, tools: view } });
      if (scoped === undefined) return view;
      const settled = view;
      return scoped instanceof Promise ? scoped.then((s) => s ?? settled) : scoped;
    };
  }
}

/** A tool as the rules see it: its Cedar id and attributes (hints as listed, after tightening). */
interface ToolFacts {
  id: string;
  server: string;
  name: string;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  trusted: boolean;
}

function toolFacts(tool: ToolDefinition): ToolFacts {
  const meta = tool.meta?.[GATEWAY_META_KEY] as { server?: string; tool?: string; trust?: string } | undefined;
  const server = meta?.server ?? '';
  const name = meta?.tool ?? tool.name;
  const hints = tool.hints;
  return {
    id: server === '' ? name : `${server}__${name}`,
    server,
    name,
    readOnly: hints.readOnlyHint,
    destructive: hints.destructiveHint,
    idempotent: hints.idempotentHint,
    openWorld: hints.openWorldHint,
    trusted: meta?.trust === 'trusted',
  };
}

/** The class of a tool: what the rules read of it (its id only when they read the id). */
function toolKey(reads: EntityReads, tool: ToolFacts): string {
  if (reads.id || reads.attrs.has('*')) return JSON.stringify(tool);
  // Compared only with some ids: one of them, or any other.
  let key = reads.ids.has(tool.id) ? JSON.stringify(tool.id) : '_';
  for (const attr of TOOL_ATTRS) {
    if (!reads.attrs.has(attr)) key += '_';
    else if (attr === 'server' || attr === 'name') key += JSON.stringify(tool[attr]);
    else key += tool[attr] ? '1' : '0';
  }
  return key;
}
const TOOL_ATTRS = ['server', 'name', 'readOnly', 'destructive', 'idempotent', 'openWorld', 'trusted'] as const;

/** The class of a person: what the rules read of them; groups and scopes are sets (order and repeats do not count). */
function personKey(reads: EntityReads, principal: RulesPrincipal): string {
  const all = reads.id || reads.attrs.has('*');
  const set = (values: string[]) => [...new Set(values)].sort();
  return JSON.stringify([
    all || reads.ids.has(principal.id) ? principal.id : null,
    all || reads.attrs.has('groups') ? set(principal.groups) : null,
    all || reads.attrs.has('department') ? principal.department : null,
    all || reads.attrs.has('client') ? principal.client : null,
    all || reads.attrs.has('scopes') ? set(principal.scopes) : null,
  ]);
}

async function readRules(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CandorError(`Cannot read the rules file ${file}: ${(error as Error).message}`, {
      code: 'invalid_rules',
      cause: error,
    });
  }
}

/** Parse and validate rules text against the shipped schema, and keep the policy set in cedar-wasm. */
async function prepare(cedar: Cedar, text: string, file: string): Promise<RulesState> {
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
  return {
    setId,
    reads: readsOf(cedar, text),
    decided: new Map(),
    size: 0,
    personKeys: new WeakMap(),
    toolKeys: new WeakMap(),
  };
}

let loaded = 0;
let warmedUp = false;

function loadCedar(): Cedar {
  avoidWasmInliningFault();
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
