/**
 * Signing in to one MCP server, and signing out. `signIn` asks the server
 * for its challenge (an unauthenticated `initialize`), then lets the SDK's `auth()` run
 * discovery, registration and PKCE through an interactive {@link CandorOAuthProvider};
 * the browser comes back to a loopback listener and the code is exchanged for tokens.
 * Failures are turned into sentences that say which server refused what, and what to set.
 */
import {
  type AuthResult,
  auth,
  discoverAuthorizationServerMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/client';
import { CandorError, type CandorErrorCode } from '../../errors.js';
import type { CredentialsStore, StoredSignIn } from './credentials-store.js';
import { LoopbackRedirect } from './loopback-redirect.js';
import { CandorOAuthProvider } from './provider.js';
import { redactTokens } from './redact-tokens.js';
import { assertSecureAuthUrl } from './secure-fetch.js';
import { clientSecretOf, type OAuthClientSettings } from './settings.js';
import { findSignInRequired } from './sign-in-required.js';

export interface SignInOptions {
  serverUrl: string;
  store: CredentialsStore;
  client?: OAuthClientSettings;
  label: string;
  loginCommand: string;
  /** Scopes to ask for on top of what the server names (`--scope`, or a step-up). */
  scopes?: string[];
  /** Show the authorization URL to the person (open the browser or print it). */
  open(url: string): Promise<void>;
  /** How long to wait for the browser (default 5 minutes). */
  timeoutMs?: number;
}

export interface SignInResult {
  issuer: string | undefined;
  scope: string | undefined;
  expiresAt: number | undefined;
  refreshable: boolean;
}

/**
 * Sign in to a server now, whatever is stored (the registered client is reused).
 *
 * @example
 * ```ts
 * await signIn({ serverUrl, store, label: 'linear', loginCommand: 'candor auth login linear', open: openBrowser });
 * ```
 */
export async function signIn(options: SignInOptions): Promise<SignInResult> {
  const { serverUrl, store, client = {}, label, loginCommand, open, timeoutMs = 5 * 60_000 } = options;
  if (client.grant === 'client_credentials') clientSecretOf(client);
  const stored = await store.get(serverUrl);
  const port = portOf(stored?.client?.redirect_uris?.[0]);
  const redirect = client.grant === 'client_credentials' ? undefined : await LoopbackRedirect.listen(port);
  const provider = new CandorOAuthProvider({
    serverUrl,
    store,
    client,
    label,
    loginCommand,
    ignoreStoredTokens: true,
    ...(redirect ? { interactive: { redirect, open, timeoutMs } } : {}),
  });
  try {
    const challenge = await probe(serverUrl, provider.fetch, label);
    // A step-up keeps what was granted before and adds what is asked for now.
    const scope = union(challenge.scope, stored?.tokens?.scope, options.scopes, client.scopes);
    const base = {
      serverUrl,
      fetchFn: provider.fetch,
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
      ...(scope ? { scope } : {}),
    };
    let result: AuthResult = await auth(provider, { ...base, forceReauthorization: true });
    if (result === 'REDIRECT') {
      const answer = provider.takeAuthorizationResponse();
      if (!answer) throw new CandorError(`${label}: the sign-in did not complete.`, { code: 'auth_refused' });
      result = await auth(provider, {
        ...base,
        authorizationCode: answer.code,
        ...(answer.iss ? { iss: answer.iss } : {}),
      });
    }
    if (result !== 'AUTHORIZED')
      throw new CandorError(`${label}: the sign-in did not complete.`, { code: 'auth_refused' });
    const entry = await store.get(serverUrl);
    return {
      issuer: entry?.issuer,
      scope: entry?.tokens?.scope,
      expiresAt: entry?.tokens?.expires_at,
      refreshable: entry?.tokens?.refresh_token !== undefined,
    };
  } catch (error) {
    throw describeSignInFailure(error, label, serverUrl);
  } finally {
    await redirect?.close();
  }
}

/**
 * Forget a server's sign-in; the tokens are revoked first (RFC 7009) where the
 * authorization server has a revocation endpoint. Returns whether anything was stored.
 */
export async function signOut(options: {
  serverUrl: string;
  store: CredentialsStore;
  client?: OAuthClientSettings;
}): Promise<{ removed: boolean; revoked: boolean; revokeError?: string }> {
  const entry = await options.store.get(options.serverUrl);
  if (!entry) return { removed: false, revoked: false };
  let revoked = false;
  let revokeError: string | undefined;
  try {
    revoked = await revoke(entry, options.client ?? {});
  } catch (error) {
    // Forgetting locally still happens: the person asked to sign out.
    revokeError = redactTokens((error as Error).message);
  }
  await options.store.delete(options.serverUrl);
  return { removed: true, revoked, ...(revokeError ? { revokeError } : {}) };
}

async function revoke(entry: StoredSignIn, client: OAuthClientSettings): Promise<boolean> {
  if (!entry.issuer || !entry.tokens) return false;
  const metadata = await discoverAuthorizationServerMetadata(entry.issuer);
  const endpoint = (metadata as { revocation_endpoint?: string } | undefined)?.revocation_endpoint;
  if (!endpoint) return false;
  assertSecureAuthUrl(endpoint, 'revocation endpoint');
  const clientId = client.clientId ?? entry.client?.client_id;
  if (!clientId) return false;
  const secret = client.clientId ? clientSecretOf(client) : entry.client?.client_secret;
  for (const [token, hint] of [
    [entry.tokens.refresh_token, 'refresh_token'],
    [entry.tokens.access_token, 'access_token'],
  ] as const) {
    if (!token) continue;
    const body = new URLSearchParams({ token, token_type_hint: hint, client_id: clientId });
    if (secret) body.set('client_secret', secret);
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      redirect: 'error',
    });
    if (!response.ok) {
      const text = redactTokens((await response.text().catch(() => '')).slice(0, 200));
      throw new CandorError(`the revocation endpoint answered ${response.status}${text ? `: ${text}` : ''}`, {
        code: 'auth_failed',
      });
    }
    await response.body?.cancel().catch(() => {});
  }
  return true;
}

/**
 * The server's 401 challenge to an unauthenticated first request, in both eras: a 2025
 * `initialize` and a 2026-07-28 `server/discover` (a server may guard only one of them).
 * Empty when it asks for nothing.
 */
async function probe(
  serverUrl: string,
  fetchFn: typeof fetch,
  label: string,
): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const post = (method: string, headers: Record<string, string>, params: object) =>
    fetchFn(serverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method, params }),
    });
  const clientInfo = { name: 'candor', version: '0' };
  let responses: Response[];
  try {
    responses = await Promise.all([
      post('initialize', {}, { protocolVersion: '2025-11-25', capabilities: {}, clientInfo }),
      post(
        'server/discover',
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
        {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': clientInfo,
          },
        },
      ),
    ]);
  } catch (error) {
    if ((error as { name?: unknown }).name === 'CandorError') throw error;
    throw new CandorError(`${label}: cannot reach ${serverUrl} (${(error as Error).message}).`, {
      code: 'target_unreachable',
      cause: error,
    });
  }
  let found: { resourceMetadataUrl?: URL; scope?: string } = {};
  for (const response of responses) {
    await response.body?.cancel().catch(() => {});
    if (response.status !== 401 && response.status !== 403) continue;
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    const challenge = { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
    if (found.scope === undefined) found = { ...found, ...challenge };
  }
  return found;
}

function union(...lists: Array<string | readonly string[] | undefined>): string | undefined {
  const all = new Set<string>();
  for (const list of lists) {
    const words = typeof list === 'string' ? list.split(/\s+/) : (list ?? []);
    for (const word of words) if (word) all.add(word);
  }
  return all.size > 0 ? [...all].join(' ') : undefined;
}

function portOf(url: string | undefined): number {
  if (!url) return 0;
  try {
    return Number(new URL(url).port) || 0;
  } catch {
    return 0;
  }
}

/**
 * One sentence for a failed sign-in: the refusing party, the reason, and what to set.
 * Secrets and tokens never appear in it.
 */
export function describeSignInFailure(error: unknown, label: string, serverUrl: string): Error {
  if (findSignInRequired(error)) return error as Error;
  const name = (error as { name?: unknown })?.name;
  const code = (error as { code?: unknown })?.code;
  // One line: the SDK's schema errors arrive as indented JSON lists of issues.
  const raw = redactTokens(error instanceof Error ? error.message : String(error))
    .replace(/\s+/g, ' ')
    .trim();
  const message = raw.length > 300 ? `${raw.slice(0, 300)}…` : raw;
  if (name === 'CandorError' || name === 'CliError') return error as Error;
  const origin = new URL(serverUrl).origin;
  const fail = (text: string, errorCode: CandorErrorCode) =>
    new CandorError(`${label}: ${text}`, { code: errorCode, cause: error });
  if (
    name === 'OAuthClientRegistrationError' ||
    name === 'RegistrationRejectedError' ||
    /registration/i.test(message)
  ) {
    return fail(
      `the authorization server refused dynamic client registration (${message}). Register candor there by hand and name the client in the config entry: "auth": { "clientId": "…", "clientSecretEnv": "NAME" } (or "clientMetadataUrl" where the server supports Client ID Metadata Documents).`,
      'auth_registration_refused',
    );
  }
  if (name === 'AuthorizationServerMismatchError' || name === 'IssuerMismatchError' || /issuer/i.test(message)) {
    return fail(
      `the sign-in was refused: the authorization server's issuer did not match (${message}).`,
      'auth_issuer',
    );
  }
  if (name === 'InsecureTokenEndpointError') {
    return fail(`refusing an insecure token endpoint (${message}); OAuth goes only over https://.`, 'auth_insecure');
  }
  if (/resource metadata|protected resource|authorization server metadata|discover/i.test(message)) {
    return fail(`OAuth discovery failed for ${origin}: ${message}`, 'auth_discovery');
  }
  if (/access_token|token response|invalid_token_response|parse/i.test(message) || code === 'invalid_token_response') {
    return fail(`the authorization server's token answer cannot be used: ${message}`, 'auth_token_response');
  }
  return fail(`sign-in failed: ${message}`, 'auth_failed');
}

// Kept here too for the callers that read it from the sign-in module.
export { redactTokens };
