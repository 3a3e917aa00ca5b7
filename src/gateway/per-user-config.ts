/**
 * The `"auth": "oauth-per-user"` upstreams of a gateway config, checked before
 * anything starts: each must be reached by URL, and the gateway must know who calls.
 */
import { CandorError } from '../errors.js';
import type { PerUserServer } from './per-user.js';
import type { GatewayOptions } from './types.js';

/** The `perUser` upstreams, checked: HTTP, and a gateway that knows who calls. */
export function perUserServersOf(options: GatewayOptions): Map<string, PerUserServer> {
  const servers = new Map<string, PerUserServer>();
  for (const [name, config] of Object.entries(options.servers)) {
    if (!config.perUser) continue;
    if (config.url === undefined) {
      throw new CandorError(`${name}: "oauth-per-user" is for servers reached by URL.`, {
        code: 'invalid_gateway_config',
      });
    }
    if (options.auth === undefined) {
      throw new CandorError(
        `${name}: "oauth-per-user" signs each person in separately, so the gateway must know who calls: run it over HTTP with --auth-issuer (or "auth" in createGateway). Without that, use "oauth" (one sign-in, made with candor auth login, shared by everyone).`,
        { code: 'invalid_gateway_config' },
      );
    }
    servers.set(name, {
      url: config.url,
      ...(config.headers ? { headers: config.headers } : {}),
      ...(config.era ? { era: config.era } : {}),
      client: typeof config.auth === 'object' ? config.auth : {},
    });
  }
  return servers;
}
