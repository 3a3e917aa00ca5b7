/**
 * Sign-in links bound to the person. A per-person upstream sign-in link never
 * goes straight to the upstream's authorization server: it opens the gateway's
 * `/oauth/upstream/connect`, which first makes the browser sign in with the
 * gateway's own issuer (OAuth 2.1 code flow with PKCE, RFC 8707 `resource` = the
 * gateway) and compares the subject of that token with the person who asked.
 * Only then is the browser sent upstream, with a short-lived, sealed, HttpOnly
 * cookie naming its person, which the upstream callback checks.
 *
 * This is the mitigation of the phishing attack that the 2025-11-25 spec describes
 * for URL-mode elicitation (client/elicitation, "Phishing"): someone who forwards
 * their own link, or the upstream URL behind it, to another person cannot get that
 * person's upstream account attached to their own calls.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  type OAuthClientInformationFull,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/client';
import { signInPage } from '../auth/client/loopback-redirect.js';
import { redactTokens } from '../auth/client/sign-in.js';
import type { ServerLogger } from '../util/logger.js';
import { PersonSeal } from './person-seal.js';
import type { PageAnswer } from './sign-in-pages.js';

/** Where a person's sign-in link points. */
export const CONNECT_PATH = '/oauth/upstream/connect';
/** Where the gateway's own issuer sends the browser back. */
export const PERSON_CALLBACK_PATH = '/oauth/gateway/callback';

const PERSON_COOKIE = 'candor_person';
const NONCE_COOKIE = 'candor_connect';
const TTL_MS = 10 * 60_000;

export interface PersonCheckOptions {
  /** The token key (every instance has the same one). */
  tokenKey: Uint8Array;
  /** The gateway's public origin. */
  origin: string;
  /** The gateway's own authorization server (`--auth-issuer`). */
  issuer: string;
  /** The gateway's resource (RFC 8707): the token it gets must be one it accepts. */
  resource: string;
  /** The subject of a gateway access token, or undefined when the gateway does not accept it. */
  subjectOf: (accessToken: string) => Promise<string | undefined>;
  /** A person's sign-in to `server` was stopped (the call waiting for it fails with `why`). */
  onRefused: (server: string, principal: string, why: string) => Promise<void>;
  logger: ServerLogger;
}

interface Link {
  server: string;
  principal: string;
  upstream: string;
}

interface State {
  link: Link;
  codeVerifier: string;
  client: OAuthClientInformationFull;
  nonce: string;
}

/**
 * The gateway's check of who opened a sign-in link.
 *
 * @example
 * ```ts
 * const check = new PersonCheck({ tokenKey, origin, issuer, resource, subjectOf, onRefused, logger });
 * const link = await check.linkFor('linear', 'alice', authorizationUrl); // what alice is sent
 * ```
 */
export class PersonCheck {
  readonly #options: PersonCheckOptions;
  readonly #seal: PersonSeal;
  readonly #secure: boolean;
  #metadata: Promise<AuthorizationServerMetadata> | undefined;
  #client: Promise<OAuthClientInformationFull> | undefined;

  constructor(options: PersonCheckOptions) {
    this.#options = options;
    this.#seal = new PersonSeal(options.tokenKey);
    this.#secure = new URL(options.origin).protocol === 'https:';
  }

  /** The link to send `principal` instead of the upstream's authorization URL. */
  async linkFor(server: string, principal: string, upstream: string): Promise<string> {
    const link = await this.#seal.seal('link', { server, principal, upstream } satisfies Link, TTL_MS);
    const url = new URL(CONNECT_PATH, this.#options.origin);
    url.searchParams.set('link', link);
    return url.href;
  }

  /** Whether the browser that sent `cookie` was shown to belong to `principal`. */
  async isPerson(cookie: string | undefined, principal: string): Promise<boolean> {
    const person = await this.#seal.open<{ sub: string }>('person', cookieOf(cookie, PERSON_COOKIE));
    return person !== undefined && person.sub === principal;
  }

  /** `GET /oauth/upstream/connect?link=…`: upstream at once for a known person, else the gateway's sign-in first. */
  async connect(url: URL, cookie: string | undefined): Promise<PageAnswer> {
    const link = await this.#seal.open<Link>('link', url.searchParams.get('link'));
    if (link === undefined) return notValid();
    if (await this.isPerson(cookie, link.principal)) return { status: 303, location: link.upstream };
    try {
      const metadata = await this.#discover();
      const client = await this.#registered(metadata);
      const nonce = randomBytes(32).toString('base64url');
      // The state is sealed: the callback, on any instance, learns the link and the verifier from it alone.
      const { authorizationUrl, codeVerifier } = await startAuthorization(this.#options.issuer, {
        metadata,
        clientInformation: client,
        redirectUrl: this.#callbackUrl(),
        resource: this.#options.resource,
        state: 'pending',
      });
      const state: State = { link, codeVerifier, client, nonce: digest(nonce) };
      authorizationUrl.searchParams.set('state', await this.#seal.seal('state', { ...state }, TTL_MS));
      return {
        status: 303,
        location: authorizationUrl.href,
        cookies: [this.#cookie(NONCE_COOKIE, nonce, TTL_MS)],
      };
    } catch (error) {
      const why = redactTokens(error instanceof Error ? error.message : String(error));
      this.#options.logger.warn(`cannot start the gateway's own sign-in for a person: ${why}`);
      return {
        status: 502,
        html: signInPage('Sign-in not possible', `The gateway cannot ask its own sign-in service who you are: ${why}`),
      };
    }
  }

  /** `GET /oauth/gateway/callback`: who signed in; upstream only when it is the person the link is for. */
  async callback(url: URL, cookie: string | undefined): Promise<PageAnswer> {
    const state = await this.#seal.open<State>('state', url.searchParams.get('state'));
    if (state === undefined) return notValid();
    const nonce = cookieOf(cookie, NONCE_COOKIE);
    // The browser that comes back must be the one that began (no one else's finished sign-in can be replayed here).
    if (nonce === undefined || digest(nonce) !== state.nonce) {
      return {
        status: 400,
        html: signInPage(
          'Sign-in link not valid here',
          'This sign-in was started in another browser. Open the link from your MCP client in this browser.',
        ),
      };
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error || !code) {
      return {
        status: 400,
        html: signInPage('Sign-in refused', `The gateway's sign-in answered ${error ?? 'without a code'}.`),
      };
    }
    let subject: string | undefined;
    try {
      const metadata = await this.#discover();
      const iss = url.searchParams.get('iss');
      const tokens = await exchangeAuthorization(this.#options.issuer, {
        metadata,
        clientInformation: state.client,
        authorizationCode: code,
        codeVerifier: state.codeVerifier,
        redirectUri: this.#callbackUrl(),
        resource: new URL(this.#options.resource),
        ...(iss ? { iss } : {}),
      });
      subject = await this.#options.subjectOf(tokens.access_token);
    } catch (failure) {
      const why = redactTokens(failure instanceof Error ? failure.message : String(failure));
      this.#options.logger.warn(`the gateway's own sign-in for a person failed: ${why}`);
      return { status: 400, html: signInPage('Sign-in failed', `${why}. Nothing was connected.`) };
    }
    const { server, principal, upstream } = state.link;
    const clear = this.#cookie(NONCE_COOKIE, '', 0);
    if (subject !== principal) {
      const why = `the sign-in link was opened by ${subject === undefined ? 'someone the gateway does not know' : 'another person'}, so nothing was connected`;
      this.#options.logger.warn(`${server}: a person's sign-in link was opened by someone else; refused`);
      await this.#options.onRefused(server, principal, why).catch(() => {});
      return {
        status: 403,
        cookies: [clear],
        html: signInPage(
          'This sign-in link is for someone else',
          `You signed in to the gateway as a different person than the one who asked for this link, so your ${server} account was not connected to anyone. To use ${server} yourself, call its tool from your own MCP client.`,
        ),
      };
    }
    return {
      status: 303,
      location: upstream,
      cookies: [clear, this.#cookie(PERSON_COOKIE, await this.#seal.seal('person', { sub: subject }, TTL_MS), TTL_MS)],
    };
  }

  #callbackUrl(): string {
    return new URL(PERSON_CALLBACK_PATH, this.#options.origin).href;
  }

  #discover(): Promise<AuthorizationServerMetadata> {
    this.#metadata ??= discoverAuthorizationServerMetadata(this.#options.issuer).then((found) => {
      if (found === undefined) throw new Error(`${this.#options.issuer} publishes no authorization server metadata`);
      return found;
    });
    this.#metadata.catch(() => {
      this.#metadata = undefined;
    });
    return this.#metadata;
  }

  /** One registration per instance (RFC 7591), as a public client of its own callback. */
  #registered(metadata: AuthorizationServerMetadata): Promise<OAuthClientInformationFull> {
    if (metadata.registration_endpoint === undefined) {
      return Promise.reject(
        new Error(`${this.#options.issuer} offers no client registration, which the gateway needs to ask who you are`),
      );
    }
    this.#client ??= registerClient(this.#options.issuer, {
      metadata,
      clientMetadata: {
        client_name: 'candor gateway',
        redirect_uris: [this.#callbackUrl()],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
    });
    this.#client.catch(() => {
      this.#client = undefined;
    });
    return this.#client;
  }

  /** HttpOnly, SameSite=Lax (sent on the top-level redirects back), only under /oauth/. */
  #cookie(name: string, value: string, ttlMs: number): string {
    const max = Math.floor(ttlMs / 1000);
    return `${name}=${value}; Path=/oauth/; Max-Age=${max}; HttpOnly; SameSite=Lax${this.#secure ? '; Secure' : ''}`;
  }
}

function notValid(): PageAnswer {
  return {
    status: 400,
    html: signInPage(
      'Sign-in link not valid',
      'This sign-in link is unknown or expired. Call the tool again from your MCP client for a new link.',
    ),
  };
}

function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
