/**
 * `candor serve --auth-*`: the flags that make the HTTP endpoint an OAuth 2.1
 * resource server, turned into `AuthOptions`. Without any of them
 * nothing changes (`npm start` serves as before).
 */
import type { AuthOptions } from '../auth/types.js';
import { CliError, EXIT } from './cli-error.js';

/** The flags as commander parsed them. */
export interface AuthFlags {
  authIssuer?: string;
  authJwks?: string;
  authAudience?: string[];
  authResource?: string;
  authScopes?: string;
}

/** Whether any `--auth-*` flag was given. */
export function hasAuthFlags(flags: AuthFlags): boolean {
  return (
    flags.authIssuer !== undefined ||
    flags.authJwks !== undefined ||
    (flags.authAudience?.length ?? 0) > 0 ||
    flags.authResource !== undefined ||
    flags.authScopes !== undefined
  );
}

/**
 * Build the auth options; `endpoint` is the URL the server will listen on,
 * the default resource (and audience).
 *
 * @example
 * ```ts
 * authOptionsFromFlags({ authIssuer: 'https://auth.example.com' }, 'http://127.0.0.1:3000/mcp');
 * ```
 */
export function authOptionsFromFlags(flags: AuthFlags, endpoint: string | undefined): AuthOptions {
  if (flags.authIssuer === undefined && flags.authJwks === undefined) {
    throw usage('--auth-issuer URL is needed to turn authorization on (add --auth-jwks URL to skip discovery).');
  }
  if (flags.authIssuer === undefined) {
    throw usage(
      '--auth-jwks needs --auth-issuer too: tokens are checked against the issuer, and clients find it in the metadata.',
    );
  }
  const resource = flags.authResource ?? endpoint;
  if (resource === undefined) {
    throw usage(
      'With --http on port 0, pass --auth-resource URL (the URL clients use, which tokens must name as audience).',
    );
  }
  const options: AuthOptions = {
    issuer: checkUrl(flags.authIssuer, '--auth-issuer'),
    resource: checkUrl(resource, '--auth-resource'),
  };
  if (flags.authJwks !== undefined) options.jwks = checkUrl(flags.authJwks, '--auth-jwks');
  if (flags.authAudience !== undefined && flags.authAudience.length > 0) options.audience = flags.authAudience;
  if (flags.authScopes !== undefined) {
    const names = flags.authScopes.split(',').map((s) => s.trim());
    if (names.length !== 3 || names.some((n) => n.length === 0)) {
      throw usage(
        `--auth-scopes takes three names, read,write,destructive (e.g. files:read,files:write,files:delete); got ${JSON.stringify(flags.authScopes)}.`,
      );
    }
    options.scopeNames = { read: names[0]!, write: names[1]!, destructive: names[2]! };
  }
  return options;
}

function checkUrl(value: string, flag: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {}
  throw usage(`${flag} must be an http(s) URL; got ${JSON.stringify(value)}.`);
}

function usage(message: string): CliError {
  return new CliError(message, { exitCode: EXIT.usage });
}
