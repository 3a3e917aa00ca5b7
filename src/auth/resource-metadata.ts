/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoint. MCP
 * authorization: servers MUST publish it and MUST list `authorization_servers`;
 * clients look at `/.well-known/oauth-protected-resource` with the resource's
 * path appended (RFC 9728 §3.1), then at the root, so both are served.
 */

/** The metadata document (RFC 9728 §2; the members candor fills). */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported: string[];
  resource_name?: string;
  resource_documentation?: string;
}

export const WELL_KNOWN_PRM = '/.well-known/oauth-protected-resource';

/**
 * Where the metadata of `resource` lives: the well-known prefix inserted
 * between the host and the path (RFC 9728 §3.1).
 *
 * @example
 * ```ts
 * metadataUrl('https://mcp.example.com/mcp'); // 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
 * ```
 */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${WELL_KNOWN_PRM}${path}`;
}

/** The paths the metadata is served at: with the resource's path, and the root. */
export function metadataPaths(resource: string): string[] {
  const path = new URL(metadataUrl(resource)).pathname;
  return path === WELL_KNOWN_PRM ? [WELL_KNOWN_PRM] : [path, WELL_KNOWN_PRM];
}

/**
 * A canonical resource URI (RFC 8707 §2, MCP "Canonical Server URI"): absolute,
 * no fragment. Returned unchanged when good; a TypeError says what is wrong.
 */
export function checkResource(resource: unknown): string {
  if (typeof resource !== 'string') {
    throw new TypeError(
      'auth.resource must be the canonical URL of this MCP server, e.g. "https://mcp.example.com/mcp".',
    );
  }
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new TypeError(`auth.resource must be an absolute URL; got ${JSON.stringify(resource)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`auth.resource must be an http(s) URL; got ${JSON.stringify(resource)}.`);
  }
  if (url.hash !== '' || resource.includes('#')) {
    throw new TypeError(`auth.resource must not have a fragment (RFC 8707); got ${JSON.stringify(resource)}.`);
  }
  return resource;
}
