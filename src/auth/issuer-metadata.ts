/**
 * Finding an issuer's `jwks_uri` from its metadata: RFC 8414 first
 * (`/.well-known/oauth-authorization-server` inserted before the issuer's
 * path), then OpenID Connect Discovery (`/.well-known/openid-configuration`
 * inserted, then appended), the order the MCP authorization spec gives clients.
 */
import { CandorError } from '../errors.js';

/** The metadata URLs to try for an issuer, in order. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const origin = url.origin;
  const urls = [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
  ];
  if (path !== '') urls.push(`${origin}${path}/.well-known/openid-configuration`);
  return urls;
}

/**
 * Read the issuer's metadata and return its `jwks_uri`. The metadata's
 * `issuer` must equal the configured one (RFC 8414 §3.3).
 */
export async function discoverJwksUri(issuer: string, fetchFn: typeof fetch = fetch): Promise<string> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const response = await fetchFn(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) {
        problems.push(`${url}: HTTP ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer !== issuer) {
        problems.push(`${url}: names issuer ${JSON.stringify(metadata.issuer)}, not ${JSON.stringify(issuer)}`);
        continue;
      }
      if (typeof metadata.jwks_uri !== 'string') {
        problems.push(`${url}: has no jwks_uri`);
        continue;
      }
      return metadata.jwks_uri;
    } catch (error) {
      problems.push(`${url}: ${(error as Error).message}`);
    }
  }
  throw new CandorError(`no usable metadata for issuer ${issuer} (${problems.join('; ')})`, { code: 'auth_discovery' });
}
