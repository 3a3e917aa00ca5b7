/**
 * The gateway's config file: `candor.gateway.json`, or the `gateway` key of
 * `candor.config.json`, or any client config with an `mcpServers` / `servers`
 * map (then every entry is an untrusted upstream and the rest is defaults).
 * Relative paths are resolved against the file's folder. Every mistake names the
 * file, the JSON path and, for syntax errors, the line and column.
 */
import path from 'node:path';
import { POLICY_PRESETS } from '../host/policy.js';
import type { PolicyConfig, PolicyPreset } from '../host/types.js';
import { entryToTarget } from '../targets/config-file.js';
import { loginOperand, sendsOwnAuthorization } from '../targets/connect.js';
import type { HttpTarget, StdioTarget } from '../targets/types.js';
import { editDistance } from '../util/edit-distance.js';
import { isRecord } from '../util/is-record.js';
import { codeModeLimitsOf } from './code-mode/code-mode-settings.js';
import { fail, gatewaySection, readConfigJson } from './config-json.js';
import { ConfigProblems, unknownKey } from './config-problems.js';
import { commandToolsOf, globsOf, lockOf, pathOf, positive, rateLimitsOf, reconnectOf } from './config-values.js';
import { hookSettings } from './hooks/settings.js';
import type { HookSettings } from './hooks/types.js';
import { PROFILE_NAME, type ProfileConfig } from './profiles.js';
import { parseQuotas } from './quotas/parse-quotas.js';
import { resultSettings, serverResultSettings } from './results/settings.js';
import type { ResultGuardSettings, ServerResultSettings } from './results/types.js';
import { entrySandbox, rootSandbox } from './sandbox-settings.js';
import { parseTaint } from './taint-settings.js';
import type { GatewayOptions, UpstreamConfig } from './types.js';

/** Config file names looked for in the current folder, in order. */
export const GATEWAY_CONFIG_FILES = ['candor.gateway.json', 'candor.config.json'] as const;

/** The keys a gateway section may have; any other is refused (the config reference documents each). */
export const KEYS = new Set([
  'results',
  'hooks',
  'servers',
  'mcpServers',
  'policy',
  'overrides',
  'lock',
  'approvalsFile',
  'commandTools',
  'rateLimits',
  'quotas',
  'quotaCounts',
  'taint',
  'audit',
  'timeoutMs',
  'confirmTimeoutMs',
  'reconnect',
  'sandbox',
  'toolList',
  'codeMode',
  'scripts',
  'alwaysList',
  'prefix',
  'profiles',
  'rules',
  'groupsClaim',
  'departmentClaim',
  '$schema',
]);

/**
 * Read and check a gateway config file.
 *
 * @example
 * ```ts
 * const options = await loadGatewayConfig('candor.gateway.json');
 * const gateway = await createGateway(options);
 * ```
 */
export async function loadGatewayConfig(file: string): Promise<GatewayOptions> {
  const absolute = path.resolve(file);
  return parseGatewayConfig(await readConfigJson(absolute), absolute);
}

/**
 * Check a parsed config (see {@link loadGatewayConfig}); `file` names it in errors and anchors
 * relative paths. Every mistake is found in one run: the error names each with its JSON path.
 */
export function parseGatewayConfig(parsed: unknown, file: string): GatewayOptions {
  const base = path.dirname(file);
  const resolve = (p: string) => path.resolve(base, p);
  if (!isRecord(parsed)) fail(file, '', 'the config must be a JSON object.');
  const section = gatewaySection(parsed, file);
  if (!section) fail(file, 'gateway', 'candor.config.json needs a "gateway" object for candor gateway.');
  const { root, prefix, map, mapKey, clientConfig } = section;
  const problems = new ConfigProblems(file);
  if (!clientConfig) {
    const known = [...KEYS].filter((k) => k !== '$schema');
    for (const key of Object.keys(root)) if (!KEYS.has(key)) problems.report(`${prefix}${key}`, unknownKey(key, known));
  }
  const servers: Record<string, UpstreamConfig> = {};
  if (!isRecord(map) || Object.keys(map).length === 0) {
    problems.report(
      mapKey,
      'expected a non-empty object of upstream servers by name, e.g. { "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] } }.',
    );
  } else {
    for (const [name, entry] of Object.entries(map)) {
      const upstream = problems.check(() => entryOf(file, `${mapKey}.${name}`, name, entry, problems));
      if (upstream) servers[name] = upstream;
    }
  }
  const options: GatewayOptions = { servers, configFile: file };
  if (clientConfig) {
    problems.throwIfAny();
    return options;
  }
  // Every entry's name, also of an entry with a mistake: a quota naming it is not a second one.
  const upstreams = isRecord(map) ? Object.keys(map) : [];
  const at = (key: string) => `${prefix}${key}`;
  const set = <K extends keyof GatewayOptions>(key: K, value: () => GatewayOptions[K]) => {
    const checked = problems.check(value);
    if (checked !== undefined) options[key] = checked;
  };
  set('sandbox', () => rootSandbox(file, prefix, root));
  if (root.results !== undefined) set('results', () => resultsOf(file, at('results'), root.results));
  if (root.hooks !== undefined) set('hooks', () => hooksOf(file, at('hooks'), root.hooks));
  if (root.policy !== undefined) set('policy', () => policyOf(file, at('policy'), root.policy));
  if (root.overrides !== undefined) set('overrides', () => pathOf(file, at('overrides'), root.overrides, resolve));
  if (root.approvalsFile !== undefined)
    set('approvalsFile', () => pathOf(file, at('approvalsFile'), root.approvalsFile, resolve));
  if (root.audit !== undefined)
    set('audit', () => pathOf(file, at('audit'), root.audit, (p) => (p === '-' ? p : resolve(p))));
  if (root.lock !== undefined) set('lock', () => lockOf(file, at('lock'), root.lock, resolve));
  if (root.commandTools !== undefined)
    set('commandTools', () => commandToolsOf(file, at('commandTools'), root.commandTools));
  if (root.rateLimits !== undefined)
    set('rateLimits', () => rateLimitsOf(file, at('rateLimits'), root.rateLimits, upstreams, problems));
  if (root.quotas !== undefined) set('quotas', () => parseQuotas(file, at('quotas'), root.quotas, upstreams));
  if (root.quotaCounts !== undefined)
    set('quotaCounts', () => pathOf(file, at('quotaCounts'), root.quotaCounts, resolve));
  if (root.taint !== undefined) set('taint', () => parseTaint(file, at('taint'), root.taint));
  if (root.toolList !== undefined)
    set('toolList', () => {
      if (root.toolList !== 'all' && root.toolList !== 'search' && root.toolList !== 'code')
        fail(
          file,
          at('toolList'),
          'must be "all" (every tool listed), "search" (find_tools adds tools per session) or "code" (scripts call the tools).',
        );
      return root.toolList;
    });
  if (root.codeMode !== undefined)
    set('codeMode', () => codeModeLimitsOf(file, at('codeMode'), root.codeMode, problems));
  if (root.scripts !== undefined) set('scripts', () => pathOf(file, at('scripts'), root.scripts, resolve));
  if (root.prefix !== undefined)
    set('prefix', () => {
      if (root.prefix !== 'always' && root.prefix !== 'never' && root.prefix !== 'on-clash')
        fail(file, at('prefix'), 'must be "always" (server__tool), "never" (upstream names) or "on-clash".');
      return root.prefix;
    });
  if (root.rules !== undefined) set('rules', () => pathOf(file, at('rules'), root.rules, resolve));
  if (root.groupsClaim !== undefined)
    set('groupsClaim', () => {
      if (typeof root.groupsClaim !== 'string' || root.groupsClaim === '')
        fail(file, at('groupsClaim'), 'expected the name of a token claim, e.g. "groups".');
      return root.groupsClaim;
    });
  if (root.departmentClaim !== undefined)
    set('departmentClaim', () => {
      if (typeof root.departmentClaim !== 'string' || root.departmentClaim === '')
        fail(file, at('departmentClaim'), 'expected the name of a token claim, e.g. "department".');
      return root.departmentClaim;
    });
  if (root.profiles !== undefined)
    set('profiles', () => profilesOf(file, at('profiles'), root.profiles, upstreams, problems));
  if (root.alwaysList !== undefined) set('alwaysList', () => globsOf(file, at('alwaysList'), root.alwaysList));
  if (root.timeoutMs !== undefined) set('timeoutMs', () => positive(file, at('timeoutMs'), root.timeoutMs));
  if (root.confirmTimeoutMs !== undefined)
    set('confirmTimeoutMs', () => positive(file, at('confirmTimeoutMs'), root.confirmTimeoutMs));
  if (root.reconnect !== undefined)
    set('reconnect', () => reconnectOf(file, at('reconnect'), root.reconnect, problems));
  problems.throwIfAny();
  return options;
}

/** One server entry; its keys are checked apart, so each mistake in it is reported. */
function entryOf(file: string, where: string, name: string, entry: unknown, problems: ConfigProblems): UpstreamConfig {
  if (!/^[A-Za-z0-9_.-]+$/.test(name) || name.includes('__')) {
    fail(
      file,
      where,
      'server names may use letters, digits, "_", "-" and "." (no "__": it separates server and tool).',
    );
  }
  const target = entryToTarget(name, entry, file);
  if (target.kind === 'invalid') fail(file, where, withGuess(target.reason.replace(`${name}: `, ''), entry));
  if (target.kind === 'module')
    fail(file, where, 'module targets cannot be gateway upstreams; serve the module with `candor serve`.');
  if (target.kind === 'http' && target.transport === 'sse') {
    fail(
      file,
      where,
      "the legacy HTTP+SSE transport is not supported upstream; use the server's Streamable HTTP endpoint.",
    );
  }
  const record = entry as Record<string, unknown>;
  const upstream = upstreamOf(target);
  if (target.kind === 'http' && target.auth?.mode === 'oauth-per-user') upstream.perUser = true;
  if (target.kind === 'http' && target.auth?.mode === 'token-exchange') upstream.tokenExchange = target.auth.exchange;
  if (target.kind === 'http' && target.auth?.mode === 'enterprise')
    fail(
      file,
      `${where}.auth`,
      '"enterprise" signs in with one person\'s ID token, so through the gateway every caller would be that person; use "tokenExchange" (each caller\'s own token) or "oauth-per-user".',
    );
  const part = (check: () => void) => problems.check(check);
  if (record.trust !== undefined)
    part(() => {
      if (record.trust !== 'trusted' && record.trust !== 'untrusted')
        fail(file, `${where}.trust`, 'must be "trusted" or "untrusted".');
      upstream.trust = record.trust;
    });
  if (record.timeoutMs !== undefined)
    part(() => {
      upstream.timeoutMs = positive(file, `${where}.timeoutMs`, record.timeoutMs);
    });
  // "protocol": the same key and values as in a client config entry (read with the entry).
  if (target.protocol !== undefined) upstream.era = target.protocol;
  else if (record.era !== undefined)
    part(() => {
      // The older spelling, kept: "legacy" is 2025-11-25, "modern" is 2026-07-28.
      if (record.era !== 'auto' && record.era !== 'legacy' && record.era !== 'modern')
        fail(file, `${where}.era`, 'must be "auto", "legacy" or "modern".');
      upstream.era = record.era;
    });
  if (record.results !== undefined)
    part(() => {
      upstream.results = serverResultsOf(file, `${where}.results`, record.results);
    });
  if (record.hooks !== undefined)
    part(() => {
      upstream.hooks = hooksOf(file, `${where}.hooks`, record.hooks);
    });
  part(() => {
    const sandbox = entrySandbox(file, where, record, target.kind === 'stdio');
    if (sandbox !== undefined) upstream.sandbox = sandbox;
  });
  return upstream;
}

/**
 * An entry with neither `command` nor `url` most often has one of them misspelt
 * (`comand`): name the key it wrote and the one it likely meant.
 */
function withGuess(reason: string, entry: unknown): string {
  if (!isRecord(entry)) return reason;
  for (const key of Object.keys(entry)) {
    // One edit away for the short `url`, two for `command`: `arg` is not a misspelt `url`.
    const near = ['command', 'url'].find(
      (known) => known !== key && editDistance(key.toLowerCase(), known) <= (known.length > 4 ? 2 : 1),
    );
    if (near !== undefined) return `${reason} Did you mean ${JSON.stringify(near)} (not ${JSON.stringify(key)})?`;
  }
  return reason;
}

/**
 * The upstream config of a stdio or HTTP target (from a config entry or the command line).
 *
 * @example
 * ```ts
 * upstreamOf({ kind: 'http', url: 'http://127.0.0.1:3000/mcp', transport: 'streamable-http', label: 'x' });
 * // { url: 'http://127.0.0.1:3000/mcp' }
 * ```
 */
export function upstreamOf(target: StdioTarget | HttpTarget): UpstreamConfig {
  if (target.kind === 'http') {
    const headers = target.headers ? { headers: target.headers } : {};
    // OAuth unless the entry sends its own Authorization header: a server that asks
    // for a sign-in then says how to give it one instead of failing with a bare 401.
    // A token-exchange entry's own Authorization header (if any) lists the tools, as for any entry.
    const listsWithHeader =
      target.auth === undefined || (target.auth.mode === 'token-exchange' && isEmpty(target.auth.client));
    if (listsWithHeader && sendsOwnAuthorization(target)) return { url: target.url, ...headers };
    const client = target.auth?.client ?? {};
    return {
      url: target.url,
      ...headers,
      auth: Object.keys(client).length > 0 ? client : 'oauth',
      loginTarget: loginOperand(target),
    };
  }
  return {
    command: target.command,
    args: target.args,
    ...(target.env ? { env: target.env } : {}),
    ...(target.ownEnv ? { sandboxEnv: target.ownEnv } : {}),
    ...(target.cwd ? { cwd: target.cwd } : {}),
  };
}

function policyOf(file: string, where: string, value: unknown): PolicyConfig | PolicyPreset {
  if (typeof value === 'string') {
    if (!POLICY_PRESETS.includes(value as PolicyPreset))
      fail(file, where, `unknown preset ${JSON.stringify(value)}; use ${POLICY_PRESETS.join(', ')}.`);
    return value as PolicyPreset;
  }
  if (!isRecord(value)) fail(file, where, 'expected a preset name or { "preset": "default", "rules": [ … ] }.');
  if (value.preset !== undefined && !POLICY_PRESETS.includes(value.preset as PolicyPreset)) {
    fail(file, `${where}.preset`, `unknown preset ${JSON.stringify(value.preset)}; use ${POLICY_PRESETS.join(', ')}.`);
  }
  if (value.rules !== undefined) {
    if (!Array.isArray(value.rules)) fail(file, `${where}.rules`, 'expected an array of rules.');
    value.rules.forEach((rule, index) => {
      if (!isRecord(rule) || !['allow', 'ask', 'deny'].includes(rule.decision as string)) {
        fail(
          file,
          `${where}.rules[${index}]`,
          'each rule needs "decision": "allow" | "ask" | "deny" (and optional tools, servers, tags, hints, reason).',
        );
      }
    });
  }
  return value as PolicyConfig;
}

function profilesOf(
  file: string,
  where: string,
  value: unknown,
  upstreams: readonly string[],
  problems: ConfigProblems,
): Record<string, ProfileConfig> {
  if (!isRecord(value))
    fail(
      file,
      where,
      'expected { "<name>": { "servers": [...], "tools": [globs], "readOnly": true, "toolList": "search" } }.',
    );
  const out: Record<string, ProfileConfig> = {};
  for (const [name, raw] of Object.entries(value)) {
    const profile = problems.check(() => profileOf(file, `${where}.${name}`, name, raw, upstreams, problems));
    if (profile) out[name] = profile;
  }
  return out;
}

const PROFILE_KEYS = ['servers', 'tools', 'readOnly', 'toolList', 'taint', 'codeMode', 'groups', 'departments'];

function profileOf(
  file: string,
  at: string,
  name: string,
  raw: unknown,
  upstreams: readonly string[],
  problems: ConfigProblems,
): ProfileConfig {
  if (!PROFILE_NAME.test(name))
    fail(
      file,
      at,
      'profile names may use letters, digits, "_" and "-" (they become /mcp/<name> and --profile <name>).',
    );
  if (!isRecord(raw)) fail(file, at, 'expected an object.');
  for (const key of Object.keys(raw))
    if (!PROFILE_KEYS.includes(key)) problems.report(`${at}.${key}`, unknownKey(key, PROFILE_KEYS));
  const profile: ProfileConfig = {};
  if (raw.servers !== undefined) {
    profile.servers = globsOf(file, `${at}.servers`, raw.servers);
    for (const server of profile.servers) {
      if (!upstreams.includes(server))
        fail(
          file,
          `${at}.servers`,
          `no upstream named ${JSON.stringify(server)}; the upstreams are ${upstreams.join(', ')}.`,
        );
    }
  }
  if (raw.tools !== undefined) profile.tools = globsOf(file, `${at}.tools`, raw.tools);
  if (raw.readOnly !== undefined) {
    if (typeof raw.readOnly !== 'boolean') fail(file, `${at}.readOnly`, 'must be true or false.');
    profile.readOnly = raw.readOnly;
  }
  if (raw.toolList !== undefined) {
    if (raw.toolList !== 'all' && raw.toolList !== 'search' && raw.toolList !== 'code')
      fail(file, `${at}.toolList`, 'must be "all", "search" or "code".');
    profile.toolList = raw.toolList;
  }
  if (raw.taint !== undefined) profile.taint = parseTaint(file, `${at}.taint`, raw.taint);
  if (raw.codeMode !== undefined) profile.codeMode = codeModeLimitsOf(file, `${at}.codeMode`, raw.codeMode, problems);
  for (const key of ['groups', 'departments'] as const) {
    const list = raw[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string' && v !== ''))
      fail(file, `${at}.${key}`, `expected a non-empty list of ${key === 'groups' ? 'group' : 'department'} names.`);
    profile[key] = list as string[];
  }
  return profile;
}

/** A `results` value, or a config error naming where it is. */
function resultsOf(file: string, where: string, value: unknown): ResultGuardSettings {
  const settings = resultSettings(value);
  if (typeof settings === 'string') fail(file, where, settings);
  return settings;
}

/** A server's `results` value (with per-tool entries), or a config error naming where it is. */
function serverResultsOf(file: string, where: string, value: unknown): ServerResultSettings {
  const settings = serverResultSettings(value);
  if ('problem' in settings) fail(file, `${where}${settings.at}`, settings.problem);
  return settings;
}

/** A `hooks` value, or a config error naming where it is. */
function hooksOf(file: string, where: string, value: unknown): HookSettings {
  const settings = hookSettings(value);
  if (typeof settings === 'string') fail(file, where, settings);
  return settings;
}

function isEmpty(record: object): boolean {
  return Object.keys(record).length === 0;
}
