/**
 * Signing in to a protected MCP server from the CLI, against a real
 * authorization server (oidc-provider: code + PKCE, dynamic registration, rotated refresh
 * tokens, resource indicators) in front of `candor serve --auth-issuer …`. `$BROWSER` is
 * a script that goes through the provider's own login and consent forms.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { type ProtectedSetup, startProtected } from '../support/oauth-client-fixture.js';

const run = promisify(execFile);

beforeAll(() => ensureBuilt());

/** The browser script's log of authorization URLs (one per sign-in it went through). */
function browserVisits(setup: ProtectedSetup): string[] {
  const file = path.join(setup.dir, 'browser.log');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

function envOf(setup: ProtectedSetup, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...setup.env, OAUTH_BROWSER_LOG: path.join(setup.dir, 'browser.log'), ...extra };
}

function stored(setup: ProtectedSetup): {
  signIns: Record<
    string,
    {
      issuer: string;
      client: { client_id: string };
      tokens?: { access_token: string; refresh_token?: string; expires_at?: number; scope?: string };
    }
  >;
} {
  const text = readFileSync(setup.credentials, 'utf8');
  for (const match of text.matchAll(/"(?:access_token|refresh_token)": ?"([^"]+)"/g)) seenTokens.add(match[1]!);
  return JSON.parse(text);
}

/** Every token value the credentials file has held during the run. */
const seenTokens = new Set<string>();

/** Make the stored access token look expired (the token itself stays as issued). */
function expire(setup: ProtectedSetup): void {
  const data = stored(setup);
  for (const entry of Object.values(data.signIns)) if (entry.tokens) entry.tokens.expires_at = Date.now() - 1000;
  writeFileSync(setup.credentials, JSON.stringify(data));
}

describe('candor auth login, then every command', () => {
  let setup: ProtectedSetup;
  const outputs: string[] = [];
  beforeAll(async () => {
    setup = await startProtected();
  });
  afterAll(async () => {
    await setup.close();
  });
  const cli = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const result = await runCli(args, { env: envOf(setup, env), timeoutMs: 90_000 });
    outputs.push(result.stdout, result.stderr);
    return result;
  };

  it('signs in once through the browser (PKCE S256, resource, native client), then reuses it silently', async () => {
    const login = await cli(['auth', 'login', setup.url]);
    expect(login.stderr).not.toContain('candor:');
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(/^Signed in to 127\.0\.0\.1:\d+\/mcp \(issuer http:\/\/127\.0\.0\.1:\d+\); scopes /);

    const [visit] = browserVisits(setup);
    const authorize = new URL(visit!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('resource')).toBe(setup.url);
    expect(authorize.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    expect(authorize.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['files:read', 'files:write', 'files:delete']),
    );
    expect(new URL(authorize.searchParams.get('redirect_uri')!).hostname).toBe('127.0.0.1');
    expect(setup.as.registrations).toHaveLength(1);
    expect(setup.as.registrations[0]).toMatchObject({ application_type: 'native', token_endpoint_auth_method: 'none' });
    expect(setup.as.resourceParams.filter((r) => r.endpoint === '/token').map((r) => r.resource)).toEqual([setup.url]);

    const inspect = await cli(['inspect', setup.url]);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain('delete_path');
    const call = await cli(['call', setup.url, 'create_file', '{"path":"a.txt","content":"hello"}']);
    expect(call.code).toBe(0);
    expect(readFileSync(path.join(setup.dir, 'a.txt'), 'utf8')).toBe('hello');
    expect(browserVisits(setup)).toHaveLength(1);
    expect(setup.as.registrations).toHaveLength(1);
  });

  it('keeps the file private: folder 0700, file 0600', () => {
    expect(statSync(setup.credentials).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(setup.credentials)).mode & 0o777).toBe(0o700);
    const data = stored(setup);
    const entry = data.signIns[setup.url]!;
    expect(entry.issuer).toBe(setup.as.issuer);
    expect(entry.tokens?.refresh_token).toBeDefined();
  });

  it('refreshes an expired access token (rotating the refresh token) without asking anyone', async () => {
    const before = stored(setup).signIns[setup.url]!.tokens!;
    expire(setup);
    const inspect = await cli(['inspect', setup.url]);
    expect(inspect.code).toBe(0);
    const after = stored(setup).signIns[setup.url]!.tokens!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBeDefined();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.expires_at).toBeGreaterThan(Date.now());
    expect(browserVisits(setup)).toHaveLength(1);
  });

  it('status shows issuer, scopes and expiry, never a token', async () => {
    const status = await cli(['auth', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`${setup.url}: signed in; issuer ${setup.as.issuer}; scopes `);
    const json = await cli(['auth', 'status', setup.url, '--json']);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.signIns[0]).toMatchObject({ resource: setup.url, signedIn: true, refreshable: true });
  });

  it('a revoked refresh token: one line naming candor auth login without a terminal (exit 2)', async () => {
    expect(await setup.as.revokeRefreshTokens()).toBeGreaterThan(0);
    expire(setup);
    const inspect = await cli(['inspect', setup.url]);
    expect(inspect.code).toBe(2);
    expect(inspect.stderr.trim().split('\n')).toEqual([
      `candor: 127.0.0.1:${new URL(setup.url).port}/mcp: the stored sign-in was refused (its refresh token is no longer valid); needs sign-in again: candor auth login ${setup.url}`,
    ]);
    expect(browserVisits(setup)).toHaveLength(1);
  });

  it('on a terminal, the same command signs in again through the browser and goes on', async () => {
    const command = [process.execPath, CLI, 'inspect', setup.url].map((w) => `'${w}'`).join(' ');
    const { stdout } = await run('script', ['-qec', command, '/dev/null'], {
      cwd: REPO,
      env: { ...process.env, ...envOf(setup), NO_COLOR: '1', CI: '' },
      timeout: 90_000,
    });
    outputs.push(stdout);
    expect(stdout).toContain('needs sign-in');
    expect(stdout).toContain('delete_path');
    expect(browserVisits(setup)).toHaveLength(2);
    expect(stored(setup).signIns[setup.url]!.tokens!.expires_at).toBeGreaterThan(Date.now());
  });

  it('logout revokes and forgets', async () => {
    const logout = await cli(['auth', 'logout', setup.url]);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain('Signed out of');
    expect(logout.stdout).toContain('revoked');
    expect(stored(setup).signIns[setup.url]).toBeUndefined();
    const inspect = await cli(['inspect', setup.url]);
    expect(inspect.code).toBe(2);
    expect(inspect.stderr).toBe(
      `candor: 127.0.0.1:${new URL(setup.url).port}/mcp needs sign-in: candor auth login ${setup.url}\n`,
    );
  });

  it('never prints a token: not in any output, log or the server stderr', () => {
    const tokens = seenTokens;
    expect(tokens.size).toBeGreaterThan(3);
    expect(outputs.length).toBeGreaterThan(10);
    const everything = [...outputs, setup.serverStderr()].join('\n');
    expect(everything).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    for (const token of tokens) expect(everything).not.toContain(token);
  });
});
