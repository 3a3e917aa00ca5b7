/**
 * The upstreams of a gateway config whose calls carry a token made for the calling
 * person (`"auth": { "tokenExchange": … }`), checked before anything starts: each is
 * reached by URL, the gateway knows who calls, and the client secret is there.
 */
import type { TokenExchangeSettings } from '../auth/client/exchange-settings.js';
import { ExchangedTokens } from '../auth/client/exchanged-tokens.js';
import { clientSecretOf } from '../auth/client/settings.js';
import { exchangeToken, postGrant, TOKEN_TYPES } from '../auth/client/token-exchange.js';
import { CandorError } from '../errors.js';
import type { DelegatedServer } from './delegated-upstreams.js';
import type { GatewayOptions } from './types.js';

/**
 * The delegated upstreams of `options`.
 *
 * @example
 * ```ts
 * const servers = delegatedServersOf(options); // Map { 'billing' => { source: 'exchanged', … } }
 * ```
 */
export function delegatedServersOf(options: GatewayOptions): Map<string, DelegatedServer> {
  const servers = new Map<string, DelegatedServer>();
  for (const [name, config] of Object.entries(options.servers)) {
    if (config.enterprise !== undefined)
      throw new CandorError(
        `${name}: "enterprise" signs in with one person's ID token, so through the gateway every caller would be that person; use "tokenExchange" (each caller's own token) or "oauth-per-user".`,
        { code: 'invalid_gateway_config' },
      );
    const exchange = config.tokenExchange;
    if (exchange === undefined) continue;
    const fail = (why: string) => new CandorError(`${name}: ${why}`, { code: 'invalid_gateway_config' });
    if (config.url === undefined) throw fail('"tokenExchange" is for servers reached by URL.');
    if (config.perUser)
      throw fail('"tokenExchange" and "oauth-per-user" are two ways to call as the person: pick one.');
    if (options.auth === undefined) {
      throw fail(
        '"tokenExchange" trades the calling person\'s token for one to this server, so the gateway must verify who calls: run it over HTTP with --auth-issuer (or "auth" in createGateway).',
      );
    }
    // RFC 8693 §2.1: the target is named by audience, resource, or both; without either, the upstream's URL.
    const resource = exchange.resource ?? (exchange.audience === undefined ? config.url : undefined);
    servers.set(name, {
      url: config.url,
      ...(config.headers ? { headers: config.headers } : {}),
      ...(config.era ? { era: config.era } : {}),
      source: 'exchanged',
      audience: exchange.audience ?? resource!,
      obtain: exchanger(exchange, resource, fail),
      refreshBeforeMs: (exchange.refreshBeforeSec ?? 30) * 1000,
    });
  }
  return servers;
}

/** The exchange of one upstream: the person's access token for one to `resource`. */
function exchanger(
  settings: TokenExchangeSettings,
  resource: string | undefined,
  fail: (why: string) => CandorError,
): DelegatedServer['obtain'] {
  let clientSecret: string | undefined;
  try {
    clientSecret = clientSecretOf(settings);
  } catch (error) {
    throw fail((error as Error).message);
  }
  const client = { tokenEndpoint: settings.tokenEndpoint, clientId: settings.clientId, clientSecret };
  // Delegation: the gateway's own token (client credentials) names it as the actor.
  const actor = settings.actor ? new ExchangedTokens() : undefined;
  return async (subjectToken) => {
    const actorToken = actor
      ? (
          await actor.get('actor', undefined, () =>
            postGrant(client, new URLSearchParams({ grant_type: 'client_credentials' })),
          )
        ).token
      : undefined;
    return exchangeToken({
      ...client,
      subjectToken,
      subjectTokenType: TOKEN_TYPES.accessToken,
      requestedTokenType: TOKEN_TYPES.accessToken,
      ...(settings.audience !== undefined ? { audience: settings.audience } : {}),
      ...(resource !== undefined ? { resource } : {}),
      ...(settings.scopes ? { scopes: settings.scopes } : {}),
      ...(actorToken !== undefined ? { actorToken, actorTokenType: TOKEN_TYPES.accessToken } : {}),
    });
  };
}
