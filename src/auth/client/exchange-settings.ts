/**
 * `"auth": { "tokenExchange": { … } }` of a gateway server entry: calls to this upstream
 * go with a token obtained by exchanging the calling person's verified access token
 * (RFC 8693) at `tokenEndpoint`, made for the upstream (`audience` / `resource`).
 */
import { CandorError } from '../../errors.js';

/** How the gateway exchanges a person's token for one to this upstream. */
export interface TokenExchangeSettings {
  /** The token endpoint that exchanges (usually the organisation's authorization server). */
  tokenEndpoint: string;
  /** The gateway's client id there. */
  clientId: string;
  /** Its secret, literally (prefer `clientSecretEnv`). */
  clientSecret?: string;
  /** The environment variable holding the secret. */
  clientSecretEnv?: string;
  /** RFC 8693 `audience`: the upstream as its authorization server names it. */
  audience?: string;
  /** RFC 8693 / RFC 8707 `resource`: the upstream's resource URI. Default: the entry's `url` when `audience` is not set. */
  resource?: string;
  /** Scopes asked for on the upstream. Default: none (the endpoint's own choice). */
  scopes?: string[];
  /**
   * Delegation (RFC 8693 §1.1): send an `actor_token` naming the gateway (a client
   * credentials token of `clientId` from the same endpoint), so the issued token says who
   * acts for the person (`act`). Default false (impersonation).
   */
  actor?: boolean;
  /** Refresh this many seconds before the exchanged token expires (default 30). */
  refreshBeforeSec?: number;
}

const KEYS = new Set([
  'tokenEndpoint',
  'clientId',
  'clientSecret',
  'clientSecretEnv',
  'audience',
  'resource',
  'scopes',
  'actor',
  'refreshBeforeSec',
]);

/**
 * Read `"auth".tokenExchange`; throws a {@link CandorError} naming the key and what is
 * accepted.
 *
 * @example
 * ```ts
 * parseTokenExchange({ tokenEndpoint: 'https://idp.example.com/token', clientId: 'gw', clientSecretEnv: 'GW_SECRET' }, 'x');
 * ```
 */
export function parseTokenExchange(value: unknown, where: string): TokenExchangeSettings {
  const fail = (why: string) => new CandorError(`${where}: ${why}`, { code: 'invalid_target' });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fail('"auth".tokenExchange must be an object { "tokenEndpoint", "clientId", "clientSecretEnv", … }.');
  }
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!KEYS.has(key)) throw fail(`unknown key "auth".tokenExchange.${key}; known: ${[...KEYS].join(', ')}.`);
  }
  const text = (key: string): string | undefined => {
    const v = raw[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.trim() === '') throw fail(`"auth".tokenExchange.${key} must be a non-empty string.`);
    return v;
  };
  const url = (key: string): string | undefined => {
    const v = text(key);
    if (v === undefined) return undefined;
    if (!URL.canParse(v)) throw fail(`"auth".tokenExchange.${key} must be a URL; got ${JSON.stringify(v)}.`);
    return v;
  };
  const tokenEndpoint = url('tokenEndpoint');
  const clientId = text('clientId');
  if (tokenEndpoint === undefined || clientId === undefined) {
    throw fail('"auth".tokenExchange needs "tokenEndpoint" and "clientId" (and "clientSecretEnv" for a secret).');
  }
  const settings: TokenExchangeSettings = { tokenEndpoint, clientId };
  const clientSecret = text('clientSecret');
  const clientSecretEnv = text('clientSecretEnv');
  if (clientSecret !== undefined && clientSecretEnv !== undefined)
    throw fail('"auth".tokenExchange takes "clientSecret" or "clientSecretEnv", not both.');
  if (clientSecret !== undefined) settings.clientSecret = clientSecret;
  if (clientSecretEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(clientSecretEnv))
      throw fail(`"auth".tokenExchange.clientSecretEnv must name an environment variable.`);
    settings.clientSecretEnv = clientSecretEnv;
  }
  const audience = text('audience');
  if (audience !== undefined) settings.audience = audience;
  const resource = url('resource');
  if (resource !== undefined) settings.resource = resource;
  if (raw.scopes !== undefined) {
    if (!Array.isArray(raw.scopes) || !raw.scopes.every((s) => typeof s === 'string' && /^[\x21-\x7e]+$/.test(s)))
      throw fail('"auth".tokenExchange.scopes must be an array of scope names (no spaces).');
    settings.scopes = raw.scopes as string[];
  }
  if (raw.actor !== undefined) {
    if (typeof raw.actor !== 'boolean') throw fail('"auth".tokenExchange.actor must be true or false.');
    settings.actor = raw.actor;
  }
  if (raw.refreshBeforeSec !== undefined) {
    if (typeof raw.refreshBeforeSec !== 'number' || !(raw.refreshBeforeSec >= 0))
      throw fail('"auth".tokenExchange.refreshBeforeSec must be a number of seconds (0 or more).');
    settings.refreshBeforeSec = raw.refreshBeforeSec;
  }
  if (settings.actor === true && settings.clientSecret === undefined && settings.clientSecretEnv === undefined)
    throw fail('"auth".tokenExchange.actor needs the gateway\'s client secret (its actor token is its own).');
  return settings;
}
