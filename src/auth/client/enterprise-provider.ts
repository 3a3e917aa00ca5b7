/**
 * The bearer token source of a server entry with `"auth": { "enterprise" }`: the person's
 * ID token from the environment, exchanged and redeemed (enterprise-grant.ts); the access
 * token kept in memory until shortly before it expires, and obtained again after a 401.
 */
import { CandorError } from '../../errors.js';
import { enterpriseAccessToken } from './enterprise-grant.js';
import type { EnterpriseSettings } from './enterprise-settings.js';
import { ExchangedTokens } from './exchanged-tokens.js';

/**
 * A bearer token source for one server (the SDK transport's `authProvider` shape).
 *
 * @example
 * ```ts
 * const transport = new StreamableHTTPClientTransport(url, { authProvider: enterpriseAuthProvider(settings, url.href) });
 * ```
 */
export function enterpriseAuthProvider(
  settings: EnterpriseSettings,
  server: string,
  env: NodeJS.ProcessEnv = process.env,
): { token(): Promise<string | undefined>; onUnauthorized(): Promise<void> } {
  const tokens = new ExchangedTokens();
  const read = (name: string | undefined, what: string): string | undefined => {
    if (name === undefined) return undefined;
    const value = env[name];
    if (value === undefined || value === '')
      throw new CandorError(
        `Enterprise-managed authorization to ${server}: ${what} is read from $${name}, which is not set.`,
        {
          code: 'sign_in_required',
        },
      );
    return value;
  };
  const obtain = async () => {
    const idToken = read(settings.idTokenEnv ?? 'CANDOR_ID_TOKEN', "the person's ID token (from single sign-on)")!;
    return enterpriseAccessToken({
      idToken,
      server,
      idp: {
        tokenEndpoint: settings.idpTokenEndpoint,
        clientId: settings.idpClientId,
        clientSecret: read(settings.idpClientSecretEnv, 'the IdP client secret'),
      },
      client: { clientId: settings.clientId, clientSecret: read(settings.clientSecretEnv, 'the client secret') },
      ...(settings.scopes ? { scopes: settings.scopes } : {}),
    });
  };
  return {
    token: async () => (await tokens.get('token', undefined, obtain)).token,
    onUnauthorized: async () => tokens.drop('token'),
  };
}
