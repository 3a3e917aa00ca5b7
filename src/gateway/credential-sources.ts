/**
 * How an upstream's calls are credentialed when no token is made for the person:
 * the person's own sign-in (`oauth-per-user`), one credential for everyone (the
 * gateway's sign-in, or an Authorization header in the entry), or none (stdio).
 */
import { canonicalResource } from '../auth/client/credentials-store.js';
import type { UpstreamCredential } from './audit-log.js';
import type { UpstreamConfig } from './types.js';

/**
 * The credential source of one upstream entry, for audit records and spans.
 *
 * @example
 * ```ts
 * credentialOf({ command: 'node', args: ['notes.mjs'] }); // { source: 'none' }
 * ```
 */
export function credentialOf(config: UpstreamConfig | undefined): UpstreamCredential {
  if (config?.url === undefined) return { source: 'none' };
  const audience = canonicalResource(config.url);
  if (config.perUser) return { source: 'per-person', audience };
  const header = Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  if (header || config.auth !== undefined) return { source: 'shared', audience };
  return { source: 'none' };
}
