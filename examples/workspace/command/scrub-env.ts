/**
 * The environment a workspace command runs with: the server's own, minus every
 * variable whose name looks like it holds a secret (tokens, keys, passwords,
 * credentials, sessions, cookies, auth) or whose value carries a password in a
 * URL (`postgres://user:pass@host`). A command the model runs should not be able
 * to read `GITHUB_TOKEN` or `OPENAI_API_KEY` and send it anywhere.
 */

/** Name segments (split on `_`, `-`, `.`) that mark a secret. */
const SECRET_SEGMENTS = new Set([
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWORDS',
  'PASSWD',
  'PASS',
  'PASSPHRASE',
  'PWD',
  'CREDENTIAL',
  'CREDENTIALS',
  'CREDS',
  'KEY',
  'KEYS',
  'APIKEY',
  'AUTH',
  'AUTHORIZATION',
  'COOKIE',
  'COOKIES',
  'SESSION',
  'DSN',
  'PRIVATE',
  'SIGNATURE',
  'OTP',
]);

/** Substrings that mark a secret even inside a run-together name (`NPMAUTHTOKEN`, `PGPASSWORD`). */
const SECRET_SUBSTRINGS = /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|APIKEY|API_KEY|PRIVATEKEY|ACCESSKEY/;

/** Names that are never secrets, whatever the rules above say. */
const ALWAYS_KEEP = new Set(['PWD', 'OLDPWD']);

/** A value that is a URL with a password in it. */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

/**
 * Whether a variable should be withheld from commands.
 *
 * @example
 * ```ts
 * looksSecret('GITHUB_TOKEN', 'ghp_…'); // true
 * looksSecret('PATH', '/usr/bin'); // false
 * looksSecret('DATABASE_URL', 'postgres://app:hunter2@db/app'); // true
 * ```
 */
export function looksSecret(name: string, value: string | undefined): boolean {
  const upper = name.toUpperCase();
  if (ALWAYS_KEEP.has(upper)) return false;
  if (upper.split(/[_.-]+/).some((segment) => SECRET_SEGMENTS.has(segment))) return true;
  if (SECRET_SUBSTRINGS.test(upper)) return true;
  return value !== undefined && URL_WITH_PASSWORD.test(value);
}

/**
 * The environment for a command: `env` without the secrets, plus the names the
 * operator explicitly allowed.
 *
 * @example
 * ```ts
 * scrubEnv({ PATH: '/usr/bin', AWS_SECRET_ACCESS_KEY: 'x' }); // { PATH: '/usr/bin' }
 * ```
 */
export function scrubEnv(
  env: Readonly<Record<string, string | undefined>>,
  allow: readonly string[] = [],
): { env: Record<string, string>; removed: string[] } {
  const allowed = new Set(allow);
  const out: Record<string, string> = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!allowed.has(name) && looksSecret(name, value)) {
      removed.push(name);
      continue;
    }
    out[name] = value;
  }
  return { env: out, removed: removed.sort() };
}
