/**
 * candor's `OAuthClientProvider` for the official SDK's client-side OAuth code.
 * The SDK does discovery (RFC 9728 → RFC 8414 / OpenID), PKCE, `resource` indicators,
 * dynamic registration, refresh and step-up; this provider decides what it cannot:
 * where sign-ins live (the {@link CredentialsStore}, bound to their issuer), which client
 * identity to use (configured id, metadata document URL, else registration as a native
 * app with a loopback redirect), and what happens when a person is needed.
 *
 * A provider is headless unless built with `interactive`: then, where the SDK would send
 * the person to the authorization server, it throws a {@link SignInRequiredError} naming
 * `candor auth login …` instead. Only `signIn()` (sign-in.ts) builds interactive ones, so a
 * connection never opens a browser behind anyone's back.
 */

import { randomBytes } from 'node:crypto';
import {
  auth,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { CandorError } from '../../errors.js';
import { canonicalResource, type StoredSignIn, type StoredTokens } from './credentials-store.js';
import type { AuthorizationResponse, LoopbackRedirect } from './loopback-redirect.js';
import { assertSecureAuthUrl, secureAuthFetch } from './secure-fetch.js';
import { clientSecretOf, type OAuthClientSettings } from './settings.js';
import { SignInRequiredError } from './sign-in-required.js';
import type { SignInStore } from './token-vault.js';

/** What an interactive provider needs to bring a person through the browser. */
export interface Interaction {
  redirect: LoopbackRedirect;
  /** Show the authorization URL to the person (open a browser, or print it). */
  open(url: string): Promise<void>;
  timeoutMs: number;
}

export interface ProviderOptions {
  /** The MCP server's URL. */
  serverUrl: string;
  /** Where sign-ins live: the credentials file, or a gateway's per-person vault. */
  store: SignInStore;
  client?: OAuthClientSettings;
  /** A short name for messages (the config entry name, or the URL). */
  label: string;
  /** The command that signs in to this server, e.g. `candor auth login mcp.json#linear`. */
  loginCommand: string;
  /** Set only by `signIn()`: bring a person through the browser. */
  interactive?: Interaction;
  /** Ignore stored tokens (a fresh sign-in was asked for); the registered client is kept. */
  ignoreStoredTokens?: boolean;
  /**
   * Set by the gateway for a person's sign-in to an `"oauth-per-user"` upstream: the
   * browser comes back to the gateway's own callback (`redirectUrl`), and `begin` gets the
   * authorization URL to hand to the person (a URL-mode elicitation) with the PKCE
   * verifier to keep until then. The gateway is a confidential web client there.
   */
  delegated?: {
    redirectUrl: string;
    begin(authorizationUrl: URL, codeVerifier: string, discovery: OAuthDiscoveryState | undefined): Promise<void>;
  };
  /** The PKCE verifier and discovery of a sign-in begun earlier (the gateway's callback finishes it). */
  codeVerifier?: string;
  discoveryState?: OAuthDiscoveryState;
  /** The scope that sign-in asked for. */
  requestedScope?: string;
}

const MINUTE = 60_000;

/**
 * The provider for one server.
 *
 * @example
 * ```ts
 * const provider = new CandorOAuthProvider({ serverUrl, store: new CredentialsStore(), label: 'linear', loginCommand: 'candor auth login linear' });
 * const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider, fetch: provider.fetch });
 * ```
 */
export class CandorOAuthProvider implements OAuthClientProvider {
  readonly serverUrl: string;
  readonly resource: string;
  readonly label: string;
  readonly loginCommand: string;
  /** The fetch for this server's OAuth and MCP traffic: https (or loopback) only, same-origin redirects only. */
  readonly fetch: typeof fetch = secureAuthFetch();
  readonly clientMetadataUrl: string | undefined;
  readonly #store: SignInStore;
  readonly #delegated: ProviderOptions['delegated'];
  readonly #client: OAuthClientSettings;
  readonly #interactive: Interaction | undefined;
  #ignoreStoredTokens: boolean;
  #entry: StoredSignIn | undefined;
  #codeVerifier: string | undefined;
  #state: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #pending: AuthorizationResponse | undefined;
  #refreshRefused = false;
  /** The scope last asked for: a token answer without `scope` was granted exactly that (RFC 6749 §5.1). */
  #requestedScope: string | undefined;
  #refreshing: Promise<void> | undefined;

  constructor(options: ProviderOptions) {
    this.serverUrl = options.serverUrl;
    this.resource = canonicalResource(options.serverUrl);
    this.label = options.label;
    this.loginCommand = options.loginCommand;
    this.#store = options.store;
    this.#client = options.client ?? {};
    this.#interactive = options.interactive;
    this.#ignoreStoredTokens = options.ignoreStoredTokens ?? false;
    this.#delegated = options.delegated;
    this.#codeVerifier = options.codeVerifier;
    this.#discovery = options.discoveryState;
    this.#requestedScope = options.requestedScope;
    this.clientMetadataUrl = this.#client.clientMetadataUrl;
  }

  /** True for a machine client (`grant: client_credentials`): no browser, no refresh token. */
  get machine(): boolean {
    return this.#client.grant === 'client_credentials';
  }

  get redirectUrl(): string | undefined {
    if (this.machine) return undefined;
    if (this.#delegated) return this.#delegated.redirectUrl;
    return this.#interactive?.redirect.url ?? this.#entry?.client?.redirect_uris?.[0] ?? 'http://127.0.0.1/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    if (this.machine) {
      return { client_name: 'candor', redirect_uris: [], grant_types: ['client_credentials'] } as OAuthClientMetadata;
    }
    if (this.#delegated) {
      // A gateway on a server keeps its client secret (sealed in its vault): a confidential web client.
      return {
        client_name: 'candor gateway',
        redirect_uris: [this.#delegated.redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        application_type: 'web',
      } as OAuthClientMetadata;
    }
    return {
      client_name: 'candor',
      redirect_uris: [this.redirectUrl!],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata;
  }

  state(): string {
    this.#state = randomBytes(32).toString('base64url');
    return this.#state;
  }

  /** The stored entry, read again from the file (another process may have refreshed it). */
  async load(): Promise<StoredSignIn | undefined> {
    this.#entry = await this.#store.get(this.resource);
    return this.#entry;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    if (this.#client.clientId !== undefined) {
      const secret = clientSecretOf(this.#client);
      return {
        client_id: this.#client.clientId,
        ...(secret !== undefined ? { client_secret: secret } : {}),
        ...(ctx ? { issuer: ctx.issuer } : {}),
      } as StoredOAuthClientInformation;
    }
    const entry = await this.load();
    if (!this.#interactive && !this.#delegated && !this.machine && entry?.tokens === undefined) {
      // Headless, nothing stored: registering a client now would only leave a stray
      // registration behind, since no one can finish the sign-in here.
      throw this.#signInRequired();
    }
    if (entry?.client === undefined) return undefined;
    if (ctx && entry.issuer !== undefined && entry.issuer !== ctx.issuer) return undefined;
    return { ...entry.client, ...(entry.issuer ? { issuer: entry.issuer } : {}) } as StoredOAuthClientInformation;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    // A client configured by hand stays in the config file, never in the credentials file.
    if (this.#client.clientId !== undefined) return;
    const { issuer: stamped, ...client } = info as StoredOAuthClientInformation & { issuer?: string };
    const issuer = ctx?.issuer ?? stamped;
    this.#entry = await this.#store.update(this.resource, (entry) => {
      const sameIssuer = entry.issuer === undefined || entry.issuer === issuer;
      const { tokens, ...rest } = entry;
      return {
        ...rest,
        ...(sameIssuer && tokens ? { tokens } : {}),
        ...(issuer ? { issuer } : {}),
        client: client as StoredSignIn['client'] & object,
      };
    });
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (this.#ignoreStoredTokens) return undefined;
    let entry = await this.load();
    if (entry?.tokens === undefined) return undefined;
    if (ctx && entry.issuer !== undefined && entry.issuer !== ctx.issuer) return undefined;
    if (ctx === undefined && dueForRefresh(entry.tokens)) {
      // The transport asks for the access token before each request: refresh it shortly
      // before it expires rather than waiting for a 401.
      this.#refreshing ??= this.#refresh().finally(() => {
        this.#refreshing = undefined;
      });
      await this.#refreshing;
      entry = this.#entry;
      if (entry?.tokens === undefined) return undefined;
    }
    return toSdkTokens(entry.tokens, entry.issuer);
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const { issuer: stamped, expires_in, ...rest } = tokens as StoredOAuthTokens & { issuer?: string };
    const issuer = ctx?.issuer ?? stamped;
    const now = Date.now();
    this.#ignoreStoredTokens = false;
    this.#entry = await this.#store.update(this.resource, (entry) => {
      const previous = entry.issuer === issuer ? entry.tokens : undefined;
      const stored: StoredTokens = {
        access_token: rest.access_token,
        token_type: rest.token_type ?? 'Bearer',
        ...(rest.scope !== undefined
          ? { scope: rest.scope }
          : this.#requestedScope !== undefined
            ? { scope: this.#requestedScope }
            : previous?.scope
              ? { scope: previous.scope }
              : {}),
        // A refresh answer without a new refresh token keeps the old one (RFC 6749 §6).
        ...(rest.refresh_token
          ? { refresh_token: rest.refresh_token }
          : previous?.refresh_token
            ? { refresh_token: previous.refresh_token }
            : {}),
        ...(typeof expires_in === 'number' ? { expires_at: now + expires_in * 1000, lifetime: expires_in * 1000 } : {}),
      };
      return { ...entry, ...(issuer ? { issuer } : {}), tokens: stored, savedAt: new Date(now).toISOString() };
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.#delegated) {
      assertSecureAuthUrl(authorizationUrl, 'authorization endpoint');
      this.#requestedScope = authorizationUrl.searchParams.get('scope') ?? undefined;
      await this.#delegated.begin(authorizationUrl, this.codeVerifier(), this.#discovery);
      return;
    }
    if (!this.#interactive) {
      const tokens = (await this.load())?.tokens;
      if (tokens === undefined || (tokens.expires_at !== undefined && tokens.expires_at <= Date.now())) {
        throw this.#signInRequired();
      }
      // Tokens that still work, yet a sign-in is wanted: a step-up (403 insufficient_scope).
      const granted = new Set(tokens.scope?.split(' ') ?? []);
      const wanted = (authorizationUrl.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
      const missing = wanted.filter((s) => !granted.has(s) && s !== 'offline_access' && s !== 'openid');
      throw this.#signInRequired(missing.length > 0 ? missing.join(' ') : wanted.join(' '));
    }
    assertSecureAuthUrl(authorizationUrl, 'authorization endpoint');
    this.#requestedScope = authorizationUrl.searchParams.get('scope') ?? undefined;
    const { redirect, open, timeoutMs } = this.#interactive;
    const expected = authorizationUrl.searchParams.get('state') ?? this.#state ?? '';
    const waiting = redirect.wait(expected, timeoutMs);
    await open(authorizationUrl.href);
    this.#pending = await waiting;
  }

  /** The code (and `iss`) the browser brought back, once; set by an interactive redirect. */
  takeAuthorizationResponse(): AuthorizationResponse | undefined {
    const pending = this.#pending;
    this.#pending = undefined;
    return pending;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined)
      throw new CandorError('No PKCE code verifier was saved for this sign-in.', { code: 'auth_failed' });
    return this.#codeVerifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.machine) return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    const scopes = [...new Set([...(scope?.split(' ') ?? []), ...(this.#client.scopes ?? [])])].filter(Boolean);
    if (scopes.length > 0) params.set('scope', scopes.join(' '));
    this.#requestedScope = params.get('scope') ?? undefined;
    return params;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') this.#codeVerifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.#discovery = undefined;
    if (scope === 'verifier' || scope === 'discovery') return;
    this.#entry = await this.#store.update(this.resource, (entry) => {
      if (scope === 'all') return undefined;
      const { tokens, client, ...rest } = entry;
      if (scope === 'tokens' && tokens?.refresh_token) this.#refreshRefused = true;
      return {
        ...rest,
        ...(scope === 'client' ? {} : client ? { client } : {}),
        ...(scope === 'tokens' ? {} : tokens ? { tokens } : {}),
      };
    });
  }

  async #refresh(): Promise<void> {
    await this.#store.withLock(async () => {
      // Another process may have refreshed (and rotated) it while this one waited.
      const entry = await this.load();
      if (entry?.tokens === undefined || !dueForRefresh(entry.tokens)) return;
      try {
        await auth(this, { serverUrl: this.serverUrl, fetchFn: this.fetch });
      } catch {
        // A refused refresh has dropped the tokens; the request then goes without one and
        // the 401 that follows says what to do.
      }
      await this.load();
    });
  }

  #signInRequired(scope?: string): SignInRequiredError {
    return new SignInRequiredError({
      label: this.label,
      reason: scope !== undefined ? 'scope' : this.#refreshRefused ? 'refused' : 'missing',
      command: this.loginCommand,
      ...(scope !== undefined ? { scope } : {}),
    });
  }
}

/** Due when it expires within a minute (or within half its lifetime, for short-lived tokens). */
function dueForRefresh(tokens: StoredTokens): boolean {
  if (tokens.expires_at === undefined || tokens.refresh_token === undefined) return false;
  const margin = Math.min(MINUTE, (tokens.lifetime ?? 2 * MINUTE) / 2);
  return Date.now() >= tokens.expires_at - margin;
}

function toSdkTokens(tokens: StoredTokens, issuer: string | undefined): StoredOAuthTokens {
  const { expires_at, lifetime: _lifetime, ...rest } = tokens;
  return {
    ...rest,
    ...(expires_at !== undefined ? { expires_in: Math.max(0, Math.floor((expires_at - Date.now()) / 1000)) } : {}),
    ...(issuer ? { issuer } : {}),
  } as StoredOAuthTokens;
}
