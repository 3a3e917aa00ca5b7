/**
 * The `"auth"` key of an HTTP server entry: `"oauth"` (sign in with a
 * browser), `"oauth-per-user"` (the gateway signs each person in separately), or an object
 * naming the client: `{ "clientId", "clientSecret" | "clientSecretEnv", "clientMetadataUrl",
 * "scopes", "grant" }`, or `{ "tokenExchange": { … } }` (exchange-settings.ts).
 */
import { CandorError } from '../../errors.js';
import { type EnterpriseSettings, parseEnterprise } from './enterprise-settings.js';
import { parseTokenExchange, type TokenExchangeSettings } from './exchange-settings.js';

/** How candor identifies itself to an authorization server and which grant it uses. */
export interface OAuthClientSettings {
  /** A client id registered by hand at the authorization server (used before anything else). */
  clientId?: string;
  /** Its secret, literally (prefer `clientSecretEnv`). */
  clientSecret?: string;
  /** The environment variable holding the secret. */
  clientSecretEnv?: string;
  /** An HTTPS Client ID Metadata Document URL, used when the server supports them. */
  clientMetadataUrl?: string;
  /** Scopes to ask for besides the ones the server names. */
  scopes?: string[];
  /** `authorization_code` (a person signs in; default) or `client_credentials` (a machine). */
  grant?: 'authorization_code' | 'client_credentials';
}

/** The parsed `"auth"` value of an entry. */
export type AuthSetting =
  | { mode: 'oauth'; client: OAuthClientSettings }
  | { mode: 'oauth-per-user'; client: OAuthClientSettings }
  /** The gateway exchanges each calling person's token for one to this server (RFC 8693). */
  | { mode: 'token-exchange'; client: OAuthClientSettings; exchange: TokenExchangeSettings }
  /** MCP Enterprise-Managed Authorization: the person's ID token → ID-JAG → access token. */
  | { mode: 'enterprise'; client: OAuthClientSettings; enterprise: EnterpriseSettings };

const KEYS = new Set([
  'clientId',
  'clientSecret',
  'clientSecretEnv',
  'clientMetadataUrl',
  'scopes',
  'grant',
  'perUser',
  'tokenExchange',
  'enterprise',
]);

/**
 * Read an entry's `"auth"` value; throws a {@link CandorError} naming the key and what is
 * accepted. `where` prefixes messages (e.g. `mcp.json: "linear".auth`).
 *
 * @example
 * ```ts
 * parseAuthSetting('oauth', 'x').mode; // 'oauth'
 * parseAuthSetting({ grant: 'client_credentials', clientId: 'bot', clientSecretEnv: 'BOT_SECRET' }, 'x');
 * ```
 */
export function parseAuthSetting(value: unknown, where: string): AuthSetting {
  if (value === 'oauth') return { mode: 'oauth', client: {} };
  if (value === 'oauth-per-user') return { mode: 'oauth-per-user', client: {} };
  const fail = (why: string) => new CandorError(`${where}: ${why}`, { code: 'invalid_target' });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail(
      `"auth" must be "oauth", "oauth-per-user" or an object { "clientId", "clientSecret" | "clientSecretEnv", "clientMetadataUrl", "scopes", "grant", "tokenExchange" }; got ${JSON.stringify(value)}.`,
    );
  }
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!KEYS.has(key)) throw fail(`unknown key "auth".${key}; known: ${[...KEYS].join(', ')}.`);
  }
  if (raw.enterprise !== undefined) {
    if (Object.keys(raw).length > 1)
      throw fail('"auth".enterprise stands alone: its keys say how candor authenticates.');
    return { mode: 'enterprise', client: {}, enterprise: parseEnterprise(raw.enterprise, where) };
  }
  if (raw.tokenExchange !== undefined) {
    const exchange = parseTokenExchange(raw.tokenExchange, where);
    const { tokenExchange: _, ...listing } = raw;
    // The other keys, if any, are how the gateway itself signs in to list the tools.
    const rest = Object.keys(listing).length > 0 ? parseAuthSetting(listing, where) : undefined;
    if (rest?.mode === 'oauth-per-user') throw fail('"auth" takes "tokenExchange" or "perUser", not both.');
    return { mode: 'token-exchange', client: rest?.client ?? {}, exchange };
  }
  const text = (key: string): string | undefined => {
    const v = raw[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.trim() === '') throw fail(`"auth".${key} must be a non-empty string.`);
    return v;
  };
  const client: OAuthClientSettings = {};
  const clientId = text('clientId');
  const clientSecret = text('clientSecret');
  const clientSecretEnv = text('clientSecretEnv');
  const clientMetadataUrl = text('clientMetadataUrl');
  if (clientId !== undefined) client.clientId = clientId;
  if (clientSecret !== undefined) client.clientSecret = clientSecret;
  if (clientSecretEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(clientSecretEnv)) {
      throw fail(`"auth".clientSecretEnv must name an environment variable; got ${JSON.stringify(clientSecretEnv)}.`);
    }
    client.clientSecretEnv = clientSecretEnv;
  }
  if (clientSecret !== undefined && clientSecretEnv !== undefined) {
    throw fail('"auth" takes "clientSecret" or "clientSecretEnv", not both.');
  }
  if (clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(clientMetadataUrl);
    } catch {
      url = undefined;
    }
    if (url?.protocol !== 'https:' || url.pathname === '/') {
      throw fail(
        `"auth".clientMetadataUrl must be an https:// URL with a path; got ${JSON.stringify(clientMetadataUrl)}.`,
      );
    }
    client.clientMetadataUrl = clientMetadataUrl;
  }
  if (raw.scopes !== undefined) {
    if (!Array.isArray(raw.scopes) || !raw.scopes.every((s) => typeof s === 'string' && /^\S+$/.test(s))) {
      throw fail('"auth".scopes must be an array of scope names (no spaces).');
    }
    client.scopes = raw.scopes as string[];
  }
  if (raw.grant !== undefined) {
    if (raw.grant !== 'authorization_code' && raw.grant !== 'client_credentials') {
      throw fail(
        `"auth".grant must be "authorization_code" or "client_credentials"; got ${JSON.stringify(raw.grant)}.`,
      );
    }
    client.grant = raw.grant;
  }
  if (client.grant === 'client_credentials' && client.clientId === undefined) {
    throw fail('"auth".grant "client_credentials" needs "clientId" and "clientSecret" or "clientSecretEnv".');
  }
  if (
    client.grant === 'client_credentials' &&
    client.clientSecret === undefined &&
    client.clientSecretEnv === undefined
  ) {
    throw fail('"auth".grant "client_credentials" needs "clientSecret" or "clientSecretEnv".');
  }
  if (raw.perUser !== undefined && typeof raw.perUser !== 'boolean')
    throw fail('"auth".perUser must be true or false.');
  return { mode: raw.perUser === true ? 'oauth-per-user' : 'oauth', client };
}

/** The client secret for these settings, read from the environment when named there. */
export function clientSecretOf(client: OAuthClientSettings, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (client.clientSecret !== undefined) return client.clientSecret;
  if (client.clientSecretEnv === undefined) return undefined;
  const secret = env[client.clientSecretEnv];
  if (secret === undefined || secret === '') {
    throw new CandorError(
      `The client secret is read from $${client.clientSecretEnv} ("auth".clientSecretEnv), which is not set.`,
      { code: 'auth_config' },
    );
  }
  return secret;
}
