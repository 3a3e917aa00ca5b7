/**
 * `"auth": "oauth-per-user"` upstreams: a gateway serving many people keeps
 * one sign-in per person for such an upstream, and calls it as that person.
 *
 * - The host's own connection (the operator's `candor auth login`) only lists the tools;
 *   a call never goes through it.
 * - A person's first call without a sign-in gets a URL-mode elicitation (2025-11-25; in
 *   2026-07-28 the same request inside `input_required`) with the upstream's authorization
 *   URL. The browser comes back to the gateway's `/oauth/upstream/callback`, which any
 *   gateway instance can answer: the sign-in in flight (PKCE verifier, who, which upstream)
 *   is sealed in the shared vault and taken once by its `state`.
 * - Tokens are kept per person in the vault (Redis when configured), sealed with
 *   AES-256-GCM under `CANDOR_TOKEN_KEY`; refreshed before expiry under a shared lock.
 * - The person's own token to the gateway is never sent upstream: the upstream gets the
 *   token its own authorization server issued to that person.
 */
import { randomUUID } from 'node:crypto';
import { auth } from '@modelcontextprotocol/client';
import { canonicalResource } from '../auth/client/credentials-store.js';
import { signInPage } from '../auth/client/loopback-redirect.js';
import { CandorOAuthProvider, type ProviderOptions } from '../auth/client/provider.js';
import type { OAuthClientSettings } from '../auth/client/settings.js';
import { describeSignInFailure, redactTokens } from '../auth/client/sign-in.js';
import { findSignInRequired } from '../auth/client/sign-in-required.js';
import type { TokenVault } from '../auth/client/token-vault.js';
import { CandorError } from '../errors.js';
import { ServerConnection } from '../host/server-connection.js';
import type { ServerConfig } from '../host/types.js';
import type { ToolContext } from '../tool/types.js';
import type { HttpHandler } from '../transports/http/create-http-handler.js';
import type { ServerLogger } from '../util/logger.js';
import type { PersonCheck } from './person-check.js';
import { pageHandler } from './sign-in-pages.js';

/** The callback path on the gateway's HTTP listener. */
export const CALLBACK_PATH = '/oauth/upstream/callback';

/** One per-user upstream, as configured. */
export interface PerUserServer {
  url: string;
  headers?: Record<string, string>;
  era?: ServerConfig['era'];
  client: OAuthClientSettings;
}

export interface PerUserOptions {
  servers: ReadonlyMap<string, PerUserServer>;
  vault: TokenVault;
  /** The gateway's public origin (`https://gateway.example.com`): the callback is `<origin>/oauth/upstream/callback`. */
  origin: string;
  /** Ties the browser that opens a sign-in link to the person who asked for it (see person-check.ts). */
  person: PersonCheck;
  logger: ServerLogger;
  /** How long a call waits for the person to finish signing in (default 5 minutes). */
  signInTimeoutMs?: number;
  /** Client capabilities and request forwarding for each person's upstream client (as the host's). */
  capabilities?: Record<string, unknown>;
  onClient?: (server: string, client: import('@modelcontextprotocol/client').Client) => void;
  /** Most person × upstream connections kept open (least recently used closed first; default 256). */
  maxConnections?: number;
  /** Close a person's connection after this long unused (default 10 minutes). */
  idleMs?: number;
}

interface Open {
  connection: ServerConnection;
  used: number;
}

interface InFlight {
  url: string;
  elicitationId: string;
  expires: number;
}

/**
 * The per-person side of a gateway.
 *
 * @example
 * ```ts
 * const perUser = new PerUserSignIns({ servers, vault, origin: 'https://gw.example.com', logger });
 * const got = await perUser.connectionFor('linear', ctx); // ctx of a downstream tools/call
 * ```
 */
export class PerUserSignIns {
  readonly callbackUrl: string;
  /** Mount at {@link CALLBACK_PATH} on the gateway's HTTP listener. */
  readonly handler: HttpHandler;
  readonly #options: PerUserOptions;
  readonly #open = new Map<string, Open>();
  readonly #inFlight = new Map<string, InFlight>();
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #sweep: ReturnType<typeof setInterval>;

  constructor(options: PerUserOptions) {
    this.#options = options;
    this.callbackUrl = new URL(CALLBACK_PATH, options.origin).href;
    this.handler = pageHandler(this.callbackUrl, (url, cookie) => this.#callback(url, cookie));
    this.#sweep = setInterval(() => this.#closeIdle(), 30_000);
    this.#sweep.unref();
  }

  /** Whether `server` signs each person in separately. */
  has(server: string): boolean {
    return this.#options.servers.has(server);
  }

  /**
   * The connection to `server` for the person making this call, signing them in first
   * when needed (through the downstream client). Throws a {@link PerUserRefusal} saying
   * why the call cannot go on (no person, declined, a link to open, …); in the 2026-07-28
   * era the URL question itself ends the round (the engine's `InputRequiredError`).
   */
  async connectionFor(server: string, ctx: ToolContext): Promise<ServerConnection> {
    const principal = ctx.auth?.subject;
    if (principal === undefined) {
      throw new PerUserRefusal(
        `${server} signs in each person separately, and this call carries no person (the gateway needs --auth-* and tokens with a "sub").`,
      );
    }
    const key = `${server}\0${principal}`;
    const open = this.#open.get(key);
    if (open && !open.connection.needsReconnect) {
      open.used = Date.now();
      return open.connection;
    }
    const connected = await this.#connect(server, principal);
    if ('connection' in connected) return connected.connection;
    // No usable sign-in: send the person to the upstream's authorization server.
    await this.#signIn(server, principal, ctx);
    const again = await this.#connect(server, principal);
    if ('connection' in again) return again.connection;
    throw new PerUserRefusal(`signed in to ${server}, but it still refuses the sign-in (${again.message}).`);
  }

  /** How many people have an open connection to `server` on this instance. */
  connectedPeople(server: string): number {
    let count = 0;
    for (const key of this.#open.keys()) if (key.startsWith(`${server}\0`)) count++;
    return count;
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    const open = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(open.map((o) => o.connection.close()));
  }

  /** Connect as `principal` with the stored sign-in; `{ message }` when there is none (or it is refused). */
  async #connect(server: string, principal: string): Promise<{ connection: ServerConnection } | { message: string }> {
    const config = this.#options.servers.get(server)!;
    const store = this.#options.vault.forPrincipal(principal);
    if ((await store.get(config.url))?.tokens === undefined) return { message: 'not signed in' };
    const provider = this.#provider(server, principal, {});
    const connection = new ServerConnection({
      name: server,
      config: {
        url: config.url,
        ...(config.headers ? { headers: config.headers } : {}),
        ...(config.era ? { era: config.era } : {}),
        auth: config.client,
      },
      oauthProvider: provider,
      ...(this.#options.capabilities ? { capabilities: this.#options.capabilities } : {}),
      ...(this.#options.onClient ? { onClient: (client) => this.#options.onClient!(server, client) } : {}),
    });
    try {
      await connection.connect();
    } catch (error) {
      await connection.close();
      if (findSignInRequired(error)) return { message: 'the stored sign-in was refused' };
      throw error;
    }
    const key = `${server}\0${principal}`;
    const previous = this.#open.get(key);
    this.#open.set(key, { connection, used: Date.now() });
    if (previous && previous.connection !== connection) await previous.connection.close();
    this.#trim();
    return { connection };
  }

  /** Bring the person through the sign-in; throws a {@link PerUserRefusal} when it does not happen. */
  async #signIn(server: string, principal: string, ctx: ToolContext): Promise<void> {
    const started = Date.now();
    let flight: InFlight;
    try {
      flight = await this.#begin(server, principal);
    } catch (error) {
      const config = this.#options.servers.get(server)!;
      const described = describeSignInFailure(error, server, config.url);
      this.#options.logger.warn(`${server}: cannot start a sign-in: ${redactTokens(described.message)}`);
      throw new PerUserRefusal(`cannot start the sign-in to ${server}: ${redactTokens(described.message)}`);
    }
    const message = `${ctx.tool.name} needs you to sign in to ${server} (once; the gateway keeps your sign-in for your calls only). Open the link, sign in, and come back.`;
    const elicitation = ctx.clientCapabilities.elicitation as { url?: object } | undefined;
    if (elicitation?.url === undefined) {
      // The client cannot open links for the person: say it in the result, for the person to read.
      throw new PerUserRefusal(
        `it needs you to sign in to ${server} first (one sign-in per person). Open this link in a browser, sign in, then call the tool again: ${flight.url}`,
      );
    }
    const answer = await ctx.elicit(
      { mode: 'url', message, url: flight.url, elicitationId: flight.elicitationId },
      { key: `sign-in-${server}` },
    );
    if (answer.action !== 'accept') {
      throw new PerUserRefusal(
        `the sign-in to ${server} was ${answer.action === 'decline' ? 'declined' : 'cancelled'}.`,
      );
    }
    const outcome = await this.#waitForSignIn(server, principal, started, ctx);
    if (outcome !== true) throw new PerUserRefusal(outcome);
    this.#inFlight.delete(`${server}\0${principal}`);
    ctx.elicitationComplete(flight.elicitationId);
  }

  /** Start (or reuse) this person's sign-in in flight: the authorization URL to open. */
  async #begin(server: string, principal: string): Promise<InFlight> {
    const key = `${server}\0${principal}`;
    const current = this.#inFlight.get(key);
    if (current && current.expires > Date.now()) return current;
    const config = this.#options.servers.get(server)!;
    let url: string | undefined;
    const provider = this.#provider(server, principal, {
      ignoreStoredTokens: true,
      delegated: {
        redirectUrl: this.callbackUrl,
        begin: async (authorizationUrl, codeVerifier, discovery) => {
          const scope = authorizationUrl.searchParams.get('scope') ?? undefined;
          // The vault makes the state; the provider's own is replaced so the callback can find the sign-in.
          const state = await this.#options.vault.savePending({
            server,
            principal,
            codeVerifier,
            ...(scope ? { scope } : {}),
            ...(discovery ? { discovery } : {}),
          });
          authorizationUrl.searchParams.set('state', state);
          url = authorizationUrl.href;
        },
      },
    });
    const scope = config.client.scopes?.join(' ');
    const result = await auth(provider, {
      serverUrl: config.url,
      fetchFn: provider.fetch,
      ...(scope ? { scope } : {}),
    });
    if (result !== 'REDIRECT' || url === undefined) {
      throw new CandorError(`${server}: the authorization server did not ask for a sign-in (${result}).`, {
        code: 'auth_failed',
      });
    }
    // The person gets the gateway's link, never the upstream's URL: the gateway checks who opens it.
    url = await this.#options.person.linkFor(server, principal, url);
    const flight: InFlight = { url, elicitationId: randomUUID(), expires: Date.now() + 9 * 60_000 };
    this.#inFlight.set(key, flight);
    return flight;
  }

  /** Wait until the callback stored this person's tokens (any instance), failed, or time ran out. */
  async #waitForSignIn(server: string, principal: string, since: number, ctx: ToolContext): Promise<true | string> {
    const { signal } = ctx;
    const { vault } = this.#options;
    const config = this.#options.servers.get(server)!;
    const store = vault.forPrincipal(principal);
    const key = `${server}\0${principal}`;
    const deadline = Date.now() + (this.#options.signInTimeoutMs ?? 5 * 60_000);
    for (;;) {
      const entry = await store.get(config.url);
      const saved = entry?.savedAt === undefined ? 0 : Date.parse(entry.savedAt);
      if (entry?.tokens !== undefined && saved >= since - 1000) return true;
      const failure = await vault.takeFailure(server, principal);
      if (failure !== undefined) {
        this.#inFlight.delete(key);
        return `the sign-in to ${server} did not complete: ${failure}`;
      }
      if (signal.aborted) return `the call was cancelled while waiting for the sign-in to ${server}.`;
      if (Date.now() > deadline) {
        this.#inFlight.delete(key);
        return `no sign-in to ${server} arrived within ${Math.round((this.#options.signInTimeoutMs ?? 300_000) / 1000)} s.`;
      }
      // Progress keeps a client that resets its timeout on progress waiting while the person signs in.
      void ctx.progress(Date.now() - since, undefined, `waiting for the sign-in to ${server}`);
      // Woken at once by a callback on this instance; another instance's shows up on the next look.
      await new Promise<void>((resolve) => {
        const waiters = this.#waiters.get(key) ?? new Set();
        this.#waiters.set(key, waiters);
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        const timer = setTimeout(wake, 500);
        waiters.add(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  /**
   * The browser's return: check `state` first, then that the browser is the person's
   * (the link's check left a cookie), then exchange the code as the person who began it.
   */
  async #callback(url: URL, cookie: string | undefined): Promise<{ status: number; html: string }> {
    const state = url.searchParams.get('state');
    const pending = state ? await this.#options.vault.takePending(state).catch(() => undefined) : undefined;
    if (!pending) {
      return {
        status: 400,
        html: signInPage(
          'Sign-in link not valid',
          'This sign-in is unknown, was already used, or expired. Call the tool again for a new link.',
        ),
      };
    }
    const { server, principal } = pending;
    const config = this.#options.servers.get(server);
    const wake = () => {
      for (const waiter of this.#waiters.get(`${server}\0${principal}`) ?? []) waiter();
    };
    if (!config) return { status: 400, html: signInPage('Sign-in link not valid', 'This gateway has no such server.') };
    if (!(await this.#options.person.isPerson(cookie, principal))) {
      // Someone else's browser (sent the upstream URL behind another person's link): nothing is kept.
      this.#options.logger.warn(`${server}: a sign-in came back in a browser not shown to be its person's; refused`);
      await this.#options.vault
        .saveFailure(server, principal, 'the sign-in came back in another browser')
        .catch(() => {});
      wake();
      return {
        status: 403,
        html: signInPage(
          'This sign-in is not yours',
          `This browser was not shown to belong to the person who asked for this ${server} sign-in, so nothing was stored. To use ${server} yourself, call its tool from your own MCP client and open the link it gives you.`,
        ),
      };
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error || !code) {
      const why = error
        ? `${server}'s authorization server answered ${error}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`
        : 'the answer carried no code';
      await this.#options.vault.saveFailure(server, principal, why).catch(() => {});
      wake();
      return { status: 400, html: signInPage('Sign-in refused', `${why}. Nothing was stored.`) };
    }
    const provider = this.#provider(server, principal, {
      codeVerifier: pending.codeVerifier,
      ...(pending.discovery ? { discoveryState: pending.discovery } : {}),
      ...(pending.scope ? { requestedScope: pending.scope } : {}),
      delegated: {
        redirectUrl: this.callbackUrl,
        begin: async () => {
          throw new CandorError('the authorization server asked for a new sign-in while finishing this one', {
            code: 'auth_failed',
          });
        },
      },
    });
    const iss = url.searchParams.get('iss');
    try {
      const result = await auth(provider, {
        serverUrl: config.url,
        fetchFn: provider.fetch,
        authorizationCode: code,
        ...(iss ? { iss } : {}),
      });
      if (result !== 'AUTHORIZED') throw new CandorError('the sign-in did not complete', { code: 'auth_failed' });
    } catch (failure) {
      const why = redactTokens(describeSignInFailure(failure, server, config.url).message);
      this.#options.logger.warn(`${server}: a person's sign-in failed: ${why}`);
      await this.#options.vault.saveFailure(server, principal, why).catch(() => {});
      wake();
      return { status: 400, html: signInPage('Sign-in failed', `${why}. Nothing was stored.`) };
    }
    // A connection made with the old sign-in (refused, or with fewer scopes) is replaced on the next call.
    const key = `${server}\0${principal}`;
    const stale = this.#open.get(key);
    this.#open.delete(key);
    await stale?.connection.close();
    wake();
    this.#options.logger.info(`${server}: a person signed in (${canonicalResource(config.url)})`);
    return {
      status: 200,
      html: signInPage(
        `Signed in to ${server}`,
        'You can close this tab and go back to your MCP client; the call goes on.',
      ),
    };
  }

  /** A provider over this person's sign-ins to `server` in the vault. */
  #provider(
    server: string,
    principal: string,
    extra: Omit<ProviderOptions, 'serverUrl' | 'store' | 'client' | 'label' | 'loginCommand'>,
  ): CandorOAuthProvider {
    const config = this.#options.servers.get(server)!;
    return new CandorOAuthProvider({
      serverUrl: config.url,
      store: this.#options.vault.forPrincipal(principal),
      client: config.client,
      label: server,
      loginCommand: 'sign in through the gateway',
      ...extra,
    });
  }

  #trim(): void {
    const max = this.#options.maxConnections ?? 256;
    if (this.#open.size <= max) return;
    const oldest = [...this.#open.entries()].sort((a, b) => a[1].used - b[1].used);
    for (const [key, open] of oldest.slice(0, this.#open.size - max)) {
      this.#open.delete(key);
      void open.connection.close();
    }
  }

  #closeIdle(): void {
    const idle = Date.now() - (this.#options.idleMs ?? 10 * 60_000);
    for (const [key, open] of this.#open) {
      if (open.used < idle) {
        this.#open.delete(key);
        void open.connection.close();
      }
    }
    const now = Date.now();
    for (const [key, flight] of this.#inFlight) if (flight.expires <= now) this.#inFlight.delete(key);
  }
}

/** Why a call to a per-user upstream cannot go on; the message is for the person. */
export class PerUserRefusal extends CandorError {
  override readonly name = 'PerUserRefusal';
  constructor(message: string) {
    super(message, { code: 'sign_in_required' });
  }
}
