/**
 * `"auth": { "enterprise": { … } }` of an HTTP server entry: reach the server with MCP
 * Enterprise-Managed Authorization. The person's ID token from their single sign-on at
 * the organisation's IdP is read from an environment variable (set by the SSO tooling
 * that signed them in); candor exchanges it at the IdP for an ID-JAG and redeems that at
 * the server's authorization server (enterprise-grant.ts, enterprise-provider.ts).
 */
import { CandorError } from '../../errors.js';

/** How a client reaches a server through Enterprise-Managed Authorization. */
export interface EnterpriseSettings {
  /** The IdP's token endpoint (where the ID token is exchanged for an ID-JAG). */
  idpTokenEndpoint: string;
  /** This client's id at the IdP (the one the person signed in to). */
  idpClientId: string;
  /** The environment variable holding its secret there. */
  idpClientSecretEnv?: string;
  /** This client's id at the MCP server's authorization server. */
  clientId: string;
  /** The environment variable holding its secret there. */
  clientSecretEnv?: string;
  /** The environment variable holding the person's ID token. Default `CANDOR_ID_TOKEN`. */
  idTokenEnv?: string;
  /** Scopes to ask for. */
  scopes?: string[];
}

const KEYS = new Set([
  'idpTokenEndpoint',
  'idpClientId',
  'idpClientSecretEnv',
  'clientId',
  'clientSecretEnv',
  'idTokenEnv',
  'scopes',
]);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Read `"auth".enterprise`; throws a {@link CandorError} naming the key.
 *
 * @example
 * ```ts
 * parseEnterprise({ idpTokenEndpoint: 'https://acme.okta.com/oauth2/v1/token', idpClientId: 'chat', clientId: 'chat-at-mcp' }, 'x');
 * ```
 */
export function parseEnterprise(value: unknown, where: string): EnterpriseSettings {
  const fail = (why: string) => new CandorError(`${where}: ${why}`, { code: 'invalid_target' });
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fail('"auth".enterprise must be an object { "idpTokenEndpoint", "idpClientId", "clientId", … }.');
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw))
    if (!KEYS.has(key)) throw fail(`unknown key "auth".enterprise.${key}; known: ${[...KEYS].join(', ')}.`);
  const settings: Partial<EnterpriseSettings> = {};
  for (const key of KEYS) {
    const v = raw[key];
    if (v === undefined || key === 'scopes') continue;
    if (typeof v !== 'string' || v.trim() === '') throw fail(`"auth".enterprise.${key} must be a non-empty string.`);
    if (key.endsWith('Env') && !ENV_NAME.test(v))
      throw fail(`"auth".enterprise.${key} must name an environment variable.`);
    (settings as Record<string, string>)[key] = v;
  }
  if (settings.idpTokenEndpoint === undefined || settings.idpClientId === undefined || settings.clientId === undefined)
    throw fail('"auth".enterprise needs "idpTokenEndpoint", "idpClientId" and "clientId".');
  if (!URL.canParse(settings.idpTokenEndpoint)) throw fail('"auth".enterprise.idpTokenEndpoint must be a URL.');
  if (raw.scopes !== undefined) {
    if (!Array.isArray(raw.scopes) || !raw.scopes.every((s) => typeof s === 'string' && /^[\x21-\x7e]+$/.test(s)))
      throw fail('"auth".enterprise.scopes must be an array of scope names (no spaces).');
    settings.scopes = raw.scopes as string[];
  }
  return settings as EnterpriseSettings;
}
