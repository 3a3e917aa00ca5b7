/**
 * `candor serve --auth-*` through the built binary: the workspace
 * example as an OAuth resource server, with tokens from the loopback test
 * authorization server (its JWKS found through its RFC 8414 metadata), and
 * clear refusals of bad flags.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, startServe } from '../support/cli-harness.js';
import { POST_HEADERS } from '../support/http-support.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../support/test-authorization-server.js';

const RESOURCE = 'http://mcp.test/mcp';
let as: TestAuthorizationServer;

beforeAll(async () => {
  ensureBuilt();
  as = await startAuthorizationServer({ resource: RESOURCE });
});
afterAll(async () => {
  await as.close();
});

async function listTools(url: string, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      ...POST_HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

describe('candor serve --example workspace --auth-issuer', () => {
  it('publishes the metadata, refuses anonymous requests, and lists by scope (renamed with --auth-scopes)', async () => {
    const served = await startServe([
      '--example',
      'workspace',
      '--auth-issuer',
      as.issuer,
      '--auth-resource',
      RESOURCE,
      '--auth-scopes',
      'files:read,files:write,files:delete',
    ]);
    try {
      expect(served.stderr()).toContain(`OAuth resource server on: tokens from ${as.issuer}`);
      const base = served.url.replace(/\/mcp$/, '');
      const metadata = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(metadata).toEqual({
        resource: RESOURCE,
        authorization_servers: [as.issuer],
        scopes_supported: ['files:read', 'files:write', 'files:delete'],
        bearer_methods_supported: ['header'],
      });
      const anonymous = await listTools(served.url);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe(
        'Bearer scope="files:read files:write files:delete", resource_metadata="http://mcp.test/.well-known/oauth-protected-resource/mcp"',
      );
      const reader = await listTools(served.url, await as.mint({ scope: 'files:read' }));
      expect(reader.status).toBe(200);
      const tools = (await reader.json()).result.tools as Array<{
        name: string;
        annotations: { readOnlyHint: boolean };
      }>;
      expect(tools.length).toBeGreaterThan(3);
      expect(tools.every((t) => t.annotations.readOnlyHint)).toBe(true);
      expect(tools.map((t) => t.name)).toContain('read_file');
      expect(tools.map((t) => t.name)).not.toContain('create_file');
      expect(as.jwksFetches).toBe(1);
    } finally {
      await served.stop();
    }
  });

  it('refuses incomplete or malformed auth flags with a usage error', async () => {
    const jwksOnly = await runCli([
      'serve',
      '--example',
      'workspace',
      '--http',
      '127.0.0.1:0',
      '--auth-jwks',
      as.jwksUri,
    ]);
    expect(jwksOnly.code).toBe(2);
    expect(jwksOnly.stderr).toMatch(/--auth-jwks needs --auth-issuer/);
    const noResource = await runCli([
      'serve',
      '--example',
      'workspace',
      '--http',
      '127.0.0.1:0',
      '--auth-issuer',
      as.issuer,
    ]);
    expect(noResource.code).toBe(2);
    expect(noResource.stderr).toMatch(/--auth-resource/);
    const badUrl = await runCli(['serve', '--example', 'workspace', '--http', '3999', '--auth-issuer', 'not a url']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/--auth-issuer must be an http\(s\) URL/);
    const badScopes = await runCli([
      'serve',
      '--example',
      'workspace',
      '--http',
      '3999',
      '--auth-issuer',
      as.issuer,
      '--auth-scopes',
      'a,b',
    ]);
    expect(badScopes.code).toBe(2);
    expect(badScopes.stderr).toMatch(/--auth-scopes takes three names/);
  });
});
