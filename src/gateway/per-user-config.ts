/**
 * The `"auth": "oauth-per-user"` upstreams of a gateway config, checked before
 * anything starts: each must be reached by URL, and the gateway must know who calls.
 * Then the per-person side built from them, with the pages it serves.
 */
import { memoryVaultBackend, redisVaultBackend, TokenVault } from '../auth/client/token-vault.js';
import { CandorError } from '../errors.js';
import type { CandorServer } from '../server/create-server.js';
import { isRefusal } from '../transports/http/authorizer.js';
import type { HttpHandler } from '../transports/http/create-http-handler.js';
import type { ServerLogger } from '../util/logger.js';
import { CALLBACK_PATH, type PerUserOptions, type PerUserServer, PerUserSignIns } from './per-user.js';
import { CONNECT_PATH, PERSON_CALLBACK_PATH, PersonCheck } from './person-check.js';
import { pageHandler } from './sign-in-pages.js';
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
    if (options.auth.issuer === undefined && options.auth.authorizationServers?.[0] === undefined) {
      throw new CandorError(
        `${name}: "oauth-per-user" asks the gateway's own authorization server who opens each sign-in link, so the gateway needs an issuer (--auth-issuer), not only keys.`,
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

/**
 * The per-person sign-ins of a gateway and the pages to mount on its listener: the
 * link a person opens (checked against the gateway's own issuer), the gateway's own
 * callback and the upstream's.
 *
 * @example
 * ```ts
 * const { signIns, mounts } = perUserSignIns(options, { server, tokenKey, servers, logger });
 * ```
 */
export function perUserSignIns(
  options: GatewayOptions,
  context: {
    server: CandorServer;
    tokenKey: Buffer;
    servers: ReadonlyMap<string, PerUserServer>;
    logger: ServerLogger;
  } & Pick<PerUserOptions, 'capabilities' | 'onClient'>,
): { signIns: PerUserSignIns; mounts: Record<string, HttpHandler> } {
  const { server, tokenKey, logger } = context;
  const auth = options.auth!;
  const origin = new URL(auth.resource).origin;
  const vault = new TokenVault({
    key: tokenKey,
    backend: server.shared
      ? redisVaultBackend(() => server.shared!.ready.then((cluster) => cluster.redis.command))
      : memoryVaultBackend(),
    ...(server.shared ? { prefix: `${server.shared.prefix}oauth:` } : {}),
    clientScope: new URL(CALLBACK_PATH, origin).href,
  });
  const person = new PersonCheck({
    tokenKey,
    origin,
    issuer: auth.issuer ?? auth.authorizationServers?.[0] ?? '',
    resource: auth.resource,
    // The token the browser's sign-in got is checked exactly as the gateway checks its callers' tokens.
    subjectOf: async (token) => {
      const admitted = await server.auth?.authenticate((name) =>
        name === 'authorization' ? `Bearer ${token}` : undefined,
      );
      return admitted === undefined || isRefusal(admitted) ? undefined : admitted.auth.subject;
    },
    onRefused: (name, principal, why) => vault.saveFailure(name, principal, why),
    logger,
  });
  const signIns = new PerUserSignIns({
    servers: context.servers,
    vault,
    origin,
    person,
    logger,
    ...(context.capabilities ? { capabilities: context.capabilities } : {}),
    ...(context.onClient ? { onClient: context.onClient } : {}),
  });
  return {
    signIns,
    mounts: {
      [CALLBACK_PATH]: signIns.handler,
      [CONNECT_PATH]: pageHandler(origin, (url, cookie) => person.connect(url, cookie)),
      [PERSON_CALLBACK_PATH]: pageHandler(origin, (url, cookie) => person.callback(url, cookie)),
    },
  };
}
