/**
 * What one run of `candor setup` writes, worked out from the files' texts alone (no
 * server started, nothing written): the client's file with one gateway entry, the
 * gateway config with the servers taken over, and the record of what was moved, which
 * `--undo` needs to put every server back. Kept pure so the merge can be checked over
 * many random histories (test/setup/setup-merge.property.test.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { CandorError } from '../errors.js';
import { isRecord } from '../util/is-record.js';
import { editServers, pathText } from './client-file.js';
import { referenceSecrets, resolveReferences } from './secrets.js';
import { type ClientSpec, GATEWAY_ENTRY_NAME, type GatewayEntry, type MovedServer, type ServerEntry } from './types.js';

/** What a setup run starts from. */
export interface SetupInput {
  client: ClientSpec;
  /** The client file and the JSON path of its server map. */
  file: string;
  mapPath: readonly string[];
  /** The client file's text now (undefined: it does not exist). */
  clientText: string | undefined;
  /** Its server map, as read (client-file.ts). */
  servers: Record<string, unknown>;
  /** The gateway config's text now (undefined: first setup). */
  gatewayText: string | undefined;
  /** The lockfile's name, next to the gateway config. */
  lockName: string;
  /** Servers earlier setups moved (empty on the first). */
  moved: Readonly<Record<string, MovedServer>>;
  /** Whether setup ran here before (the `candor` entry is then its own). */
  earlier: boolean;
  /** How the client starts the gateway, without the env (setup fills it). */
  launch: { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string };
  /** The variables of an entry's `envFile` (VS Code), read by the caller. */
  readEnvFile?: (file: string) => Record<string, string>;
}

/** What a setup run writes. */
export interface SetupPlan {
  clientAfter: string;
  gatewayAfter: string;
  /** Every server setup has moved so far, this run's included. */
  moved: Record<string, MovedServer>;
  /** The gateway's upstreams after this run (`${NAME}` references in place of values). */
  servers: Record<string, ServerEntry>;
  /** The env of the gateway entry: the values the references stand for. */
  env: Record<string, string>;
}

const SERVER_NAME = /^[A-Za-z0-9_.-]+$/;
/** The keys of an entry that say how to reach the server (what undo compares and rewrites). */
export const TRANSPORT_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'type', 'headers'] as const;

/** The transport keys of an upstream, for telling whether someone changed how it is reached. */
export function transportOf(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(TRANSPORT_KEYS.filter((k) => entry[k] !== undefined).map((k) => [k, entry[k]]));
}

function failAt(file: string, where: string, reason: string): CandorError {
  return new CandorError(`${file} at ${where}: ${reason} The file was left as it is.`, {
    code: 'invalid_server_config',
  });
}

/** The client's entries (other than the gateway's own) as gateway upstreams; a bad one stops setup. */
function takeOver(input: SetupInput): Record<string, ServerEntry> {
  const out: Record<string, ServerEntry> = {};
  for (const [name, value] of Object.entries(input.servers)) {
    if (name === GATEWAY_ENTRY_NAME && input.earlier) continue;
    const fail = (reason: string) => failAt(input.file, pathText([...input.mapPath, name]), reason);
    if (name === GATEWAY_ENTRY_NAME)
      throw fail(`the entry "${GATEWAY_ENTRY_NAME}" was not written by candor setup; rename it first.`);
    if (!SERVER_NAME.test(name) || name.includes('__'))
      throw fail('the gateway takes server names of letters, digits, "_", "-" and "." (no "__"); rename it first.');
    if (!isRecord(value)) throw fail('expected an object.');
    const entry = input.client.readEntry(value);
    if (typeof entry === 'string') throw fail(`${entry}.`);
    if (entry.envFile !== undefined) {
      const { envFile, ...rest } = entry;
      if (!input.readEnvFile) throw fail('"envFile" cannot be read here.');
      out[name] = { ...rest, env: { ...input.readEnvFile(envFile), ...rest.env } };
    } else out[name] = entry;
  }
  return out;
}

/** A tool name as a glob that matches only itself. */
const literal = (name: string) => name.replace(/[\\*?[\]{}()!|+@]/g, '\\$&');

/** Deny rules for the tools a client kept from the model (the gateway lists them but refuses calls). */
function filterRules(server: string, filter: NonNullable<ServerEntry['toolFilter']>, title: string): unknown[] {
  const rules: unknown[] = [];
  if (filter.exclude && filter.exclude.length > 0)
    rules.push({
      decision: 'deny',
      servers: literal(server),
      tools: filter.exclude.map((tool) => `${literal(server)}__${literal(tool)}`),
      reason: `excluded in the ${title} settings (excludeTools)`,
    });
  if (filter.include && filter.include.length > 0)
    rules.push({
      decision: 'deny',
      servers: literal(server),
      tools: `${literal(server)}__!(${filter.include.map(literal).join('|')})`,
      reason: `not among the tools the ${title} settings include (includeTools)`,
    });
  return rules;
}

/** The gateway config's text with the policy rules of `servers` replaced by `rules`. */
function withRules(text: string, servers: readonly string[], rules: unknown[], title: string): string {
  const parsed: unknown = parse(text);
  const policy = isRecord(parsed) ? parsed.policy : undefined;
  const current = isRecord(policy) && Array.isArray(policy.rules) ? policy.rules : [];
  const ours = (rule: unknown) =>
    isRecord(rule) &&
    typeof rule.reason === 'string' &&
    rule.reason.includes(`the ${title} settings`) &&
    servers.some((s) => rule.servers === literal(s));
  const kept = current.filter((rule) => !ours(rule));
  if (kept.length === current.length && rules.length === 0) return text;
  const next = [...kept, ...rules];
  const options = { formattingOptions: { insertSpaces: true, tabSize: 2 } };
  if (typeof policy === 'string')
    return applyEdits(text, modify(text, ['policy'], { preset: policy, rules: next }, options));
  return applyEdits(text, modify(text, ['policy', 'rules'], next.length > 0 ? next : undefined, options));
}

/** The upstream as the gateway config stores it: the client's tool filter and env file are setup's to read. */
function upstreamOf(entry: ServerEntry): ServerEntry {
  const { toolFilter: _filter, envFile: _file, ...upstream } = entry;
  return upstream;
}

/**
 * Work out one setup run.
 *
 * @example
 * ```ts
 * const plan = planSetup({ client: cursor, file, mapPath: ['mcpServers'], clientText, servers, gatewayText: undefined,
 *   lockName: 'candor.lock.json', moved: {}, earlier: false, launch: { kind: 'stdio', command: 'candor', args: [] } });
 * ```
 */
export function planSetup(input: SetupInput): SetupPlan {
  const { client, gatewayText } = input;
  const parsedGateway: unknown = gatewayText === undefined ? {} : parse(gatewayText);
  const previous = (isRecord(parsedGateway) && isRecord(parsedGateway.servers) ? parsedGateway.servers : {}) as Record<
    string,
    ServerEntry
  >;
  const ourEntry = input.earlier ? input.servers[GATEWAY_ENTRY_NAME] : undefined;
  const env: Record<string, string> = {};
  if (isRecord(ourEntry) && isRecord(ourEntry.env)) {
    for (const [key, value] of Object.entries(ourEntry.env)) if (typeof value === 'string') env[key] = value;
  }
  const incoming = takeOver(input);
  // A name both in the client and behind the gateway, reached differently: taking either would drop the other.
  for (const [name, entry] of Object.entries(incoming)) {
    const behind = previous[name];
    if (
      isRecord(behind) &&
      !isDeepStrictEqual(
        transportOf(resolveReferences(behind, env) as Record<string, unknown>),
        transportOf(upstreamOf(entry) as Record<string, unknown>),
      )
    )
      throw failAt(
        input.file,
        pathText([...input.mapPath, name]),
        `a server named "${name}" is behind the gateway already, started differently; rename one (or take the gateway's out with candor gateway remove ${name}) and run setup again.`,
      );
  }
  const referenced = referenceSecrets(
    Object.fromEntries(Object.entries(incoming).map(([n, e]) => [n, upstreamOf(e)])),
    env,
  );
  const servers = { ...previous, ...referenced };
  if (Object.keys(servers).length === 0) {
    // A file that is not there is named as missing, not as one without servers.
    const problem =
      input.clientText === undefined
        ? `${input.file} does not exist: ${input.client.title} has no config here, so no servers to put the gateway in front of.`
        : `${input.file} has no servers at ${pathText(input.mapPath)} to put the gateway in front of.`;
    throw new CandorError(problem, { code: 'invalid_server_config' });
  }
  let gatewayAfter =
    gatewayText === undefined
      ? `${JSON.stringify({ servers, lock: { file: input.lockName } }, null, 2)}\n`
      : editServers(gatewayText, ['servers'], servers, Object.keys(previous));
  const rules = Object.entries(incoming).flatMap(([name, e]) =>
    e.toolFilter ? filterRules(name, e.toolFilter, client.title) : [],
  );
  gatewayAfter = withRules(gatewayAfter, Object.keys(incoming), rules, client.title);
  const launch: GatewayEntry = input.launch.kind === 'http' ? input.launch : { ...input.launch, env };
  const entry = client.gatewayEntry(launch);
  if (typeof entry === 'string') throw new CandorError(`${entry}.`, { code: 'invalid_server_config' });
  const clientAfter = editServers(
    input.clientText,
    input.mapPath,
    { [GATEWAY_ENTRY_NAME]: entry },
    Object.keys(input.servers),
  );
  const moved: Record<string, MovedServer> = { ...input.moved };
  for (const name of Object.keys(incoming))
    moved[name] = {
      entry: input.servers[name] as Record<string, unknown>,
      upstream: referenced[name] as Record<string, unknown>,
    };
  return { clientAfter, gatewayAfter, moved, servers, env };
}
