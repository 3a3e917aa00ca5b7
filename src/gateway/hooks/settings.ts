/**
 * Reading `"hooks"` from the gateway config. A hook URL is where the gateway sends
 * every call's arguments (and results), so it is checked like any outbound target:
 * `https:`, or `http:` to a loopback address only, unless the config says otherwise.
 */
import { type HookSettings, MAX_HOOK_TIMEOUT_MS } from './types.js';

const KEYS = ['beforeCall', 'afterCall', 'timeoutMs', 'failure', 'allowRemoteHttp'] as const;

/** True for localhost and the loopback addresses (127.0.0.0/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

function urlProblem(key: string, value: unknown, allowRemoteHttp: boolean): string | undefined {
  if (typeof value !== 'string') return `${key} must be a URL string.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${key} is not a URL (got ${JSON.stringify(value)}).`;
  }
  if (url.username || url.password) return `${key} must not carry a user or password (it would be logged).`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol !== 'http:') return `${key} must be an https: URL, or http: to a loopback address.`;
  if (isLoopbackHost(url.hostname) || allowRemoteHttp) return undefined;
  return `${key} is plain http to ${url.hostname}; use https, a loopback address, or set "allowRemoteHttp": true.`;
}

/**
 * Check a `hooks` value; returns the settings, or a sentence saying what is wrong.
 *
 * @example
 * ```ts
 * hookSettings({ beforeCall: 'http://127.0.0.1:8787/before', failure: 'closed' }); // { beforeCall: …, failure: 'closed' }
 * hookSettings({ beforeCall: 'http://10.0.0.5/before' }); // 'beforeCall is plain http to 10.0.0.5; …'
 * ```
 */
export function hookSettings(value: unknown): HookSettings | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'must be an object such as { "beforeCall": "http://127.0.0.1:8787/before", "failure": "closed" }.';
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!(KEYS as readonly string[]).includes(key))
      return `unknown key "${key}"; expected ${KEYS.map((k) => `"${k}"`).join(', ')}.`;
  const out: HookSettings = {};
  if (record.allowRemoteHttp !== undefined) {
    if (typeof record.allowRemoteHttp !== 'boolean') return 'allowRemoteHttp must be true or false.';
    out.allowRemoteHttp = record.allowRemoteHttp;
  }
  for (const key of ['beforeCall', 'afterCall'] as const) {
    if (record[key] === undefined) continue;
    const problem = urlProblem(key, record[key], out.allowRemoteHttp ?? false);
    if (problem) return problem;
    out[key] = record[key] as string;
  }
  if (record.timeoutMs !== undefined) {
    const t = record.timeoutMs;
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0 || t > MAX_HOOK_TIMEOUT_MS)
      return `timeoutMs must be a number of milliseconds above 0 and at most ${MAX_HOOK_TIMEOUT_MS} (got ${JSON.stringify(t)}); a hook holds its call while it thinks.`;
    out.timeoutMs = t;
  }
  if (record.failure !== undefined) {
    if (record.failure !== 'open' && record.failure !== 'closed')
      return `failure must be "open" or "closed" (got ${JSON.stringify(record.failure)}).`;
    out.failure = record.failure;
  }
  return out;
}

/**
 * Parse the command line's `--hooks key=value,...` over the config's `hooks` (the flag's
 * keys win), and check the whole; returns the settings or a sentence saying what is wrong.
 * Each pair splits at its first `=`, so URLs keep their query strings; a URL holding a
 * comma must write it as `%2C`.
 *
 * @example
 * ```ts
 * hookSettingsFlag('beforeCall=http://127.0.0.1:8787/before,failure=closed');
 * // { beforeCall: 'http://127.0.0.1:8787/before', failure: 'closed' }
 * ```
 */
export function hookSettingsFlag(text: string, base: HookSettings = {}): HookSettings | string {
  const record: Record<string, unknown> = { ...base };
  const given = new Map<string, string>();
  for (const part of text.split(',')) {
    const at = part.indexOf('=');
    const key = at < 0 ? '' : part.slice(0, at).trim();
    const value = at < 0 ? '' : part.slice(at + 1).trim();
    if (key === '' || value === '')
      return `--hooks expects key=value pairs separated by commas, e.g. --hooks beforeCall=http://127.0.0.1:8787/before,failure=closed (got "${part}").`;
    const earlier = given.get(key);
    if (earlier !== undefined && earlier !== value)
      return `--hooks: ${key} is given twice (${earlier}, then ${value}); give each key once.`;
    given.set(key, value);
    // Numbers and booleans as the config would hold them; anything else is checked as given.
    record[key] =
      key === 'timeoutMs' && /^\d+(\.\d+)?$/.test(value)
        ? Number(value)
        : key === 'allowRemoteHttp' && (value === 'true' || value === 'false')
          ? value === 'true'
          : value;
  }
  const settings = hookSettings(record);
  return typeof settings === 'string' ? `--hooks: ${settings}` : settings;
}
