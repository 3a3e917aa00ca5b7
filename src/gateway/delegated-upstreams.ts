/**
 * Upstreams called with a token made for the calling person from the token they
 * called the gateway with, by token exchange (RFC 8693, `"auth": { "tokenExchange" }`).
 *
 * - The person's verified token is the subject; it never goes upstream itself, and
 *   no token is logged or put in an audit record or a message.
 * - Tokens are kept per person × upstream until shortly before they expire (never past
 *   the person's own token), and a call then gets a fresh one first.
 * - A refusal at the token endpoint (invalid subject token, audience not allowed, the
 *   endpoint down) fails the call with a message naming the upstream and the reason.
 * - The host's own connection (the operator's sign-in, or the entry's headers) only
 *   lists the tools; a call never goes through it.
 */
import { ExchangedTokens } from '../auth/client/exchanged-tokens.js';
import { redactTokens } from '../auth/client/redact-tokens.js';
import type { IssuedToken } from '../auth/client/token-exchange.js';
import { subjectTokenOf } from '../auth/subject-tokens.js';
import { CandorError } from '../errors.js';
import { ServerConnection } from '../host/server-connection.js';
import type { ServerConfig } from '../host/types.js';
import type { AuthInfo, ToolContext } from '../tool/types.js';
import type { ServerLogger } from '../util/logger.js';
import type { UpstreamCredential } from './audit-log.js';
import { PersonConnections } from './person-connections.js';

/** One upstream whose calls carry a token made for the person. */
export interface DelegatedServer {
  url: string;
  headers?: Record<string, string>;
  era?: ServerConfig['era'];
  source: 'exchanged';
  /** The upstream as the tokens name it (audience or resource), for audit records. */
  audience: string;
  /** Get a token for the person from their verified token (`subjectToken`). */
  obtain(subjectToken: string, auth: AuthInfo): Promise<IssuedToken>;
  /** Exchange again this long before a token expires (default 30 s). */
  refreshBeforeMs?: number;
}

/** Options of {@link DelegatedUpstreams}. */
export interface DelegatedUpstreamsOptions {
  servers: ReadonlyMap<string, DelegatedServer>;
  logger: ServerLogger;
  capabilities?: Record<string, unknown>;
  onClient?: (server: string, client: import('@modelcontextprotocol/client').Client) => void;
  maxConnections?: number;
  idleMs?: number;
}

/**
 * The delegated upstreams of a gateway.
 *
 * @example
 * ```ts
 * const delegated = new DelegatedUpstreams({ servers, logger });
 * const connection = await delegated.connectionFor('billing', ctx); // ctx of a downstream tools/call
 * ```
 */
export class DelegatedUpstreams {
  readonly #options: DelegatedUpstreamsOptions;
  readonly #tokens = new Map<string, ExchangedTokens>();
  readonly #pool: PersonConnections;
  /** The newest verified token of each person × upstream: what a refresh after a 401 exchanges. */
  readonly #subjects = new Map<string, { token: string; auth: AuthInfo }>();

  constructor(options: DelegatedUpstreamsOptions) {
    this.#options = options;
    this.#pool = new PersonConnections({ maxConnections: options.maxConnections, idleMs: options.idleMs });
    for (const [name, server] of options.servers) {
      this.#tokens.set(name, new ExchangedTokens({ refreshBeforeMs: server.refreshBeforeMs ?? 30_000 }));
    }
  }

  /** Whether `server`'s calls carry a token made for the person. */
  has(server: string): boolean {
    return this.#options.servers.has(server);
  }

  /** How `server`'s calls are credentialed, for audit records and spans. */
  credentialOf(server: string): UpstreamCredential | undefined {
    const config = this.#options.servers.get(server);
    return config === undefined ? undefined : { source: config.source, audience: config.audience };
  }

  /** Exchanges made for `server` so far (cache misses). */
  exchanges(server: string): number {
    return this.#tokens.get(server)?.exchanges ?? 0;
  }

  /**
   * The person's connection to `server`, with a token made for them (exchanged now when
   * none is held or it is about to expire). Throws a {@link DelegationRefusal} whose
   * message names the upstream and the reason.
   */
  async connectionFor(server: string, ctx: ToolContext): Promise<ServerConnection> {
    const config = this.#options.servers.get(server)!;
    const auth = ctx.auth;
    const person = auth?.subject;
    const subjectToken = subjectTokenOf(auth);
    if (auth === undefined || person === undefined || subjectToken === undefined) {
      throw new DelegationRefusal(
        `${server} is called with a token made for the person calling, and this call carries no verified person (the gateway needs --auth-* and tokens with a "sub").`,
      );
    }
    const key = `${server}\0${person}`;
    // Newest last; bounded like the token cache, oldest person forgotten first.
    this.#subjects.delete(key);
    if (this.#subjects.size >= 10_000) this.#subjects.delete(this.#subjects.keys().next().value as string);
    this.#subjects.set(key, { token: subjectToken, auth });
    await this.#token(server, key);
    const open = this.#pool.get(server, person);
    if (open) return open;
    const connection = new ServerConnection({
      name: server,
      config: {
        url: config.url,
        ...(config.headers ? { headers: withoutAuthorization(config.headers) } : {}),
        ...(config.era ? { era: config.era } : {}),
      },
      bearer: {
        token: async () => this.#tokens.get(server)!.current(key)?.token,
        onUnauthorized: async () => {
          // The upstream refused the token it was given: get another once, then the call fails.
          this.#tokens.get(server)!.drop(key);
          await this.#token(server, key);
        },
      },
      ...(this.#options.capabilities ? { capabilities: this.#options.capabilities } : {}),
      ...(this.#options.onClient ? { onClient: (client) => this.#options.onClient!(server, client) } : {}),
    });
    try {
      await connection.connect();
    } catch (error) {
      await connection.close();
      if (error instanceof DelegationRefusal) throw error;
      throw new DelegationRefusal(
        `${server} refused the connection made with the token obtained for you: ${redactTokens((error as Error).message)}`,
      );
    }
    return this.#pool.add(server, person, connection);
  }

  /** How many people have an open connection to `server` on this instance. */
  connectedPeople(server: string): number {
    return this.#pool.people(server);
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  async #token(server: string, key: string): Promise<IssuedToken> {
    const config = this.#options.servers.get(server)!;
    const subject = this.#subjects.get(key)!;
    const notAfter = subject.auth.expiresAt === undefined ? undefined : subject.auth.expiresAt * 1000;
    try {
      return await this.#tokens.get(server)!.get(key, notAfter, () => config.obtain(subject.token, subject.auth));
    } catch (error) {
      const reason = redactTokens(error instanceof CandorError ? error.message : String(error));
      this.#options.logger.warn(`${server}: the token exchange for a person failed: ${reason}`);
      throw new DelegationRefusal(`no token for ${server}: the token exchange failed: ${reason}.`);
    }
  }
}

/** The entry's headers without an Authorization header: the person's token replaces it. */
function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

/** Why a call to a delegated upstream cannot go on; the message is for the person. */
export class DelegationRefusal extends CandorError {
  override readonly name = 'DelegationRefusal';
  constructor(message: string) {
    super(message, { code: 'auth_refused' });
  }
}
