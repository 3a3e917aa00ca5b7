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
import type { RateLimit } from '../tool/types.js';
import { isRecord } from '../util/is-record.js';
import { fail, gatewaySection, readConfigJson } from './config-json.js';
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
  'alwaysList',
  'prefix',
  'profiles',
  'rules',
  'groupsClaim',
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

/** Check a parsed config (see {@link loadGatewayConfig}); `file` names it in errors and anchors relative paths. */
export function parseGatewayConfig(parsed: unknown, file: string): GatewayOptions {
  const base = path.dirname(file);
  const resolve = (p: string) => path.resolve(base, p);
  if (!isRecord(parsed)) fail(file, '', 'the config must be a JSON object.');
  const section = gatewaySection(parsed, file);
  if (!section) fail(file, 'gateway', 'candor.config.json needs a "gateway" object for candor gateway.');
  const { root, prefix, map, mapKey, clientConfig } = section;
  if (!clientConfig) {
    for (const key of Object.keys(root)) {
      if (!KEYS.has(key))
        fail(
          file,
          `${prefix}${key}`,
          `unknown key; expected one of ${[...KEYS].filter((k) => k !== '$schema').join(', ')}.`,
        );
    }
  }
  if (!isRecord(map) || Object.keys(map).length === 0) {
    fail(
      file,
      mapKey,
      'expected a non-empty object of upstream servers by name, e.g. { "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] } }.',
    );
  }
  const servers: Record<string, UpstreamConfig> = {};
  for (const [name, entry] of Object.entries(map)) {
    const where = `${mapKey}.${name}`;
    if (!/^[A-Za-z0-9_.-]+$/.test(name) || name.includes('__')) {
      fail(
        file,
        where,
        'server names may use letters, digits, "_", "-" and "." (no "__": it separates server and tool).',
      );
    }
    const target = entryToTarget(name, entry, file);
    if (target.kind === 'invalid') fail(file, where, target.reason.replace(`${name}: `, ''));
    if (target.kind === 'module')
      fail(file, where, 'module targets cannot be gateway upstreams; serve the module with `candor serve`.');
    const record = entry as Record<string, unknown>;
    const upstream = upstreamOf(target);
    if (target.kind === 'http' && target.auth?.mode === 'oauth-per-user') upstream.perUser = true;
    if (target.kind === 'http' && target.transport === 'sse') {
      fail(
        file,
        where,
        "the legacy HTTP+SSE transport is not supported upstream; use the server's Streamable HTTP endpoint.",
      );
    }
    if (record.trust !== undefined) {
      if (record.trust !== 'trusted' && record.trust !== 'untrusted')
        fail(file, `${where}.trust`, 'must be "trusted" or "untrusted".');
      upstream.trust = record.trust;
    }
    if (record.timeoutMs !== undefined) upstream.timeoutMs = positive(file, `${where}.timeoutMs`, record.timeoutMs);
    // "protocol": the same key and values as in a client config entry (read with the entry).
    if (target.protocol !== undefined) upstream.era = target.protocol;
    else if (record.era !== undefined) {
      // The older spelling, kept: "legacy" is 2025-11-25, "modern" is 2026-07-28.
      if (record.era !== 'auto' && record.era !== 'legacy' && record.era !== 'modern')
        fail(file, `${where}.era`, 'must be "auto", "legacy" or "modern".');
      upstream.era = record.era;
    }
    if (record.results !== undefined) upstream.results = serverResultsOf(file, `${where}.results`, record.results);
    if (record.hooks !== undefined) upstream.hooks = hooksOf(file, `${where}.hooks`, record.hooks);
    const sandbox = entrySandbox(file, where, record, target.kind === 'stdio');
    if (sandbox !== undefined) upstream.sandbox = sandbox;
    servers[name] = upstream;
  }
  const options: GatewayOptions = { servers, configFile: file };
  if (clientConfig) return options;

  const byDefault = rootSandbox(file, prefix, root);
  if (byDefault !== undefined) options.sandbox = byDefault;
  if (root.results !== undefined) options.results = resultsOf(file, `${prefix}results`, root.results);
  if (root.hooks !== undefined) options.hooks = hooksOf(file, `${prefix}hooks`, root.hooks);
  if (root.policy !== undefined) options.policy = policyOf(file, `${prefix}policy`, root.policy);
  if (root.overrides !== undefined) options.overrides = pathOf(file, `${prefix}overrides`, root.overrides, resolve);
  if (root.approvalsFile !== undefined)
    options.approvalsFile = pathOf(file, `${prefix}approvalsFile`, root.approvalsFile, resolve);
  if (root.audit !== undefined) {
    const audit = pathOf(file, `${prefix}audit`, root.audit, (p) => (p === '-' ? p : resolve(p)));
    options.audit = audit;
  }
  if (root.lock !== undefined) {
    const lock = typeof root.lock === 'string' ? { file: root.lock } : root.lock;
    if (!isRecord(lock) || typeof lock.file !== 'string')
      fail(
        file,
        `${prefix}lock`,
        'expected a path or { "file": "candor.lock.json", "onChange": "block", "onNew": "ask" }.',
      );
    const modes = ['block', 'ask', 'warn'];
    if (lock.onChange !== undefined && !modes.includes(lock.onChange as string))
      fail(file, `${prefix}lock.onChange`, 'must be "block", "ask" or "warn".');
    if (lock.onNew !== undefined && ![...modes, 'allow'].includes(lock.onNew as string))
      fail(file, `${prefix}lock.onNew`, 'must be "block", "ask", "warn" or "allow".');
    options.lock = {
      file: resolve(lock.file),
      ...(lock.onChange !== undefined ? { onChange: lock.onChange as 'block' } : {}),
      ...(lock.onNew !== undefined ? { onNew: lock.onNew as 'ask' } : {}),
    };
  }
  if (root.commandTools !== undefined) {
    if (!isRecord(root.commandTools))
      fail(file, `${prefix}commandTools`, 'expected { "<tool glob>": { "argument": "command" } }.');
    const commandTools: Record<string, { argument: string }> = {};
    for (const [glob, value] of Object.entries(root.commandTools)) {
      if (!isRecord(value) || typeof value.argument !== 'string')
        fail(
          file,
          `${prefix}commandTools.${glob}`,
          'expected { "argument": "<name of the argument holding the command>" }.',
        );
      commandTools[glob] = { argument: value.argument };
    }
    options.commandTools = commandTools;
  }
  if (root.rateLimits !== undefined) {
    if (!isRecord(root.rateLimits)) fail(file, `${prefix}rateLimits`, 'expected { "servers": { … }, "tools": { … } }.');
    const limits: NonNullable<GatewayOptions['rateLimits']> = {};
    for (const kind of ['servers', 'tools'] as const) {
      const group = root.rateLimits[kind];
      if (group === undefined) continue;
      if (!isRecord(group))
        fail(file, `${prefix}rateLimits.${kind}`, 'expected an object of { "windowMs": 60000, "max": 100 } by name.');
      const out: Record<string, RateLimit> = {};
      for (const [name, value] of Object.entries(group)) {
        const where = `${prefix}rateLimits.${kind}.${name}`;
        if (kind === 'servers' && !(name in servers))
          fail(
            file,
            where,
            `no upstream named ${JSON.stringify(name)}; the upstreams are ${Object.keys(servers).join(', ')}.`,
          );
        if (!isRecord(value)) fail(file, where, 'expected { "windowMs": 60000, "max": 100 }.');
        const max = positive(file, `${where}.max`, value.max);
        if (!Number.isInteger(max)) fail(file, `${where}.max`, 'must be a whole number.');
        out[name] = { windowMs: positive(file, `${where}.windowMs`, value.windowMs), max };
      }
      limits[kind] = out;
    }
    options.rateLimits = limits;
  }
  if (root.quotas !== undefined)
    options.quotas = parseQuotas(file, `${prefix}quotas`, root.quotas, Object.keys(servers));
  if (root.quotaCounts !== undefined)
    options.quotaCounts = pathOf(file, `${prefix}quotaCounts`, root.quotaCounts, resolve);
  if (root.taint !== undefined) options.taint = parseTaint(file, `${prefix}taint`, root.taint);
  if (root.toolList !== undefined) {
    if (root.toolList !== 'all' && root.toolList !== 'search' && root.toolList !== 'code')
      fail(
        file,
        `${prefix}toolList`,
        'must be "all" (every tool listed), "search" (find_tools adds tools per session) or "code" (scripts call the tools).',
      );
    options.toolList = root.toolList;
  }
  if (root.prefix !== undefined) {
    if (root.prefix !== 'always' && root.prefix !== 'never' && root.prefix !== 'on-clash')
      fail(file, `${prefix}prefix`, 'must be "always" (server__tool), "never" (upstream names) or "on-clash".');
    options.prefix = root.prefix;
  }
  if (root.rules !== undefined) options.rules = pathOf(file, `${prefix}rules`, root.rules, resolve);
  if (root.groupsClaim !== undefined) {
    if (typeof root.groupsClaim !== 'string' || root.groupsClaim === '')
      fail(file, `${prefix}groupsClaim`, 'expected the name of a token claim, e.g. "groups".');
    options.groupsClaim = root.groupsClaim;
  }
  if (root.profiles !== undefined) options.profiles = profilesOf(file, `${prefix}profiles`, root.profiles, servers);
  if (root.alwaysList !== undefined) options.alwaysList = globsOf(file, `${prefix}alwaysList`, root.alwaysList);
  if (root.timeoutMs !== undefined) options.timeoutMs = positive(file, `${prefix}timeoutMs`, root.timeoutMs);
  if (root.confirmTimeoutMs !== undefined)
    options.confirmTimeoutMs = positive(file, `${prefix}confirmTimeoutMs`, root.confirmTimeoutMs);
  if (root.reconnect !== undefined) {
    if (!isRecord(root.reconnect))
      fail(file, `${prefix}reconnect`, 'expected { "initialDelayMs": 1000, "maxDelayMs": 60000 }.');
    options.reconnect = {
      ...(root.reconnect.initialDelayMs !== undefined
        ? { initialDelayMs: positive(file, `${prefix}reconnect.initialDelayMs`, root.reconnect.initialDelayMs) }
        : {}),
      ...(root.reconnect.maxDelayMs !== undefined
        ? { maxDelayMs: positive(file, `${prefix}reconnect.maxDelayMs`, root.reconnect.maxDelayMs) }
        : {}),
    };
  }
  return options;
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
    if (target.auth === undefined && sendsOwnAuthorization(target)) return { url: target.url, ...headers };
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
  servers: Record<string, UpstreamConfig>,
): Record<string, ProfileConfig> {
  if (!isRecord(value))
    fail(
      file,
      where,
      'expected { "<name>": { "servers": [...], "tools": [globs], "readOnly": true, "toolList": "search" } }.',
    );
  const out: Record<string, ProfileConfig> = {};
  for (const [name, raw] of Object.entries(value)) {
    const at = `${where}.${name}`;
    if (!PROFILE_NAME.test(name))
      fail(
        file,
        at,
        'profile names may use letters, digits, "_" and "-" (they become /mcp/<name> and --profile <name>).',
      );
    if (!isRecord(raw)) fail(file, at, 'expected an object.');
    for (const key of Object.keys(raw)) {
      if (!['servers', 'tools', 'readOnly', 'toolList', 'taint'].includes(key))
        fail(file, `${at}.${key}`, 'unknown key; expected servers, tools, readOnly, toolList or taint.');
    }
    const profile: ProfileConfig = {};
    if (raw.servers !== undefined) {
      profile.servers = globsOf(file, `${at}.servers`, raw.servers);
      for (const server of profile.servers) {
        if (!(server in servers))
          fail(
            file,
            `${at}.servers`,
            `no upstream named ${JSON.stringify(server)}; the upstreams are ${Object.keys(servers).join(', ')}.`,
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
    out[name] = profile;
  }
  return out;
}

function globsOf(file: string, where: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.trim() === ''))
    fail(file, where, 'expected an array of tool names or globs, e.g. ["memory__read_graph", "files__read_*"].');
  return value as string[];
}

function pathOf(file: string, where: string, value: unknown, resolve: (p: string) => string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(file, where, 'expected a file path.');
  return resolve(value);
}

function positive(file: string, where: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    fail(file, where, 'must be a positive number.');
  return value;
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
