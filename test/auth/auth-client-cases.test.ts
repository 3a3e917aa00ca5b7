/**
 * The other sign-in cases, against the real authorization server
 * (oidc-provider) and `candor serve --auth-issuer …`: a config entry named as
 * `file#name`, step-up on 403 `insufficient_scope`, client credentials for machines,
 * a client registered by hand, dynamic registration refused, and a forged `state` or
 * `iss` in the browser's answer — each leaving the other stored sign-ins as they were.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialsStore } from '../../src/auth/client/credentials-store.js';
import { findSignInRequired } from '../../src/auth/client/sign-in-required.js';
import { connectTarget } from '../../src/targets/connect.js';
import { parseTargets } from '../../src/targets/parse.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';
import { type ProtectedSetup, startProtected } from '../support/oauth-client-fixture.js';

beforeAll(() => ensureBuilt());

function cliIn(setup: ProtectedSetup) {
  return (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(args, { cwd: setup.dir, env: { ...setup.env, ...env }, timeoutMs: 90_000 });
}

function writeConfig(setup: ProtectedSetup, servers: Record<string, unknown>): void {
  writeFileSync(path.join(setup.dir, 'mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2));
}

describe('a config entry, and step-up to more scopes', () => {
  let setup: ProtectedSetup;
  let allowDelete = false;
  beforeAll(async () => {
    setup = await startProtected({ grantable: (scope) => allowDelete || scope !== 'files:delete' });
    writeConfig(setup, { notes: { type: 'http', url: setup.url, auth: 'oauth' } });
  });
  afterAll(async () => {
    await setup.close();
  });

  it('names the entry as file#name in every message, and signs in by that name', async () => {
    const cli = cliIn(setup);
    const before = await cli(['inspect', 'mcp.json#notes']);
    expect(before.code).toBe(2);
    expect(before.stderr).toBe('candor: notes needs sign-in: candor auth login mcp.json#notes\n');
    const login = await cli(['auth', 'login', 'mcp.json#notes']);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Signed in to notes');
    expect(login.stdout).toContain('scopes files:read files:write');
    expect(login.stdout).not.toContain('files:delete');
    const inspect = await cli(['inspect', 'mcp.json#notes']);
    expect(inspect.code).toBe(0);
  });

  it('a 403 insufficient_scope asks for a new sign-in with the missing scope, then works once granted', async () => {
    // The server lists only the tools a token's scopes allow, so the call is sent as a
    // client that knows the name would send it: over the wire, through connectTarget.
    const [target] = await parseTargets({ targets: ['mcp.json#notes'], cwd: setup.dir });
    const store = new CredentialsStore(setup.credentials);
    writeFileSync(path.join(setup.dir, 'gone.txt'), 'x');
    const connection = await connectTarget(target!, { credentials: store });
    let refused: unknown;
    try {
      await connection.client.callTool({ name: 'delete_path', arguments: { path: 'gone.txt' } });
    } catch (error) {
      refused = error;
    } finally {
      await connection.close();
    }
    const required = findSignInRequired(refused);
    expect(required?.reason).toBe('scope');
    expect(required?.message).toBe(
      `notes needs a new sign-in with more scopes (files:delete): candor auth login ${path.join(setup.dir, 'mcp.json')}#notes --scope files:delete`,
    );
    allowDelete = true;
    const cli = cliIn(setup);
    const login = await cli(['auth', 'login', 'mcp.json#notes', '--scope', 'files:delete']);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('files:delete');
    const call = await cli(['call', 'mcp.json#notes', 'delete_path', '{"path":"gone.txt"}', '--yes']);
    expect(call.stderr).toBe('');
    expect(call.code).toBe(0);
  });
});

describe('client identities', () => {
  let setup: ProtectedSetup;
  beforeAll(async () => {
    setup = await startProtected({
      clients: [
        {
          client_id: 'machine',
          client_secret: 'machine-secret-value-1234',
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
        },
        {
          client_id: 'by-hand',
          application_type: 'native',
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          redirect_uris: ['http://127.0.0.1/callback'],
          response_types: ['code'],
        },
      ],
    });
    writeConfig(setup, {
      machine: {
        url: setup.url,
        auth: { grant: 'client_credentials', clientId: 'machine', clientSecretEnv: 'MACHINE_SECRET' },
      },
      byHand: { url: setup.url, auth: { clientId: 'by-hand' } },
      broken: { url: setup.url, auth: { grant: 'client_credentials' } },
    });
  });
  afterAll(async () => {
    await setup.close();
  });

  it('client credentials: no browser, no refresh token, resource still sent', async () => {
    const cli = cliIn(setup);
    const missing = await cli(['inspect', 'mcp.json#machine'], { MACHINE_SECRET: '' });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('$MACHINE_SECRET');
    const inspect = await cli(['inspect', 'mcp.json#machine'], { MACHINE_SECRET: 'machine-secret-value-1234' });
    expect(inspect.stderr).toBe('');
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain('read_file');
    const entry = JSON.parse(readFileSync(setup.credentials, 'utf8')).signIns[setup.url];
    expect(entry.tokens.refresh_token).toBeUndefined();
    expect(entry.client).toBeUndefined();
    expect(JSON.stringify(entry)).not.toContain('machine-secret-value-1234');
    expect(setup.as.resourceParams.filter((r) => r.endpoint === '/token').at(-1)?.resource).toBe(setup.url);
    expect(setup.as.registrations).toHaveLength(0);
  });

  it('a client registered by hand signs in without dynamic registration', async () => {
    const cli = cliIn(setup);
    const login = await cli(['auth', 'login', 'mcp.json#byHand'], {
      CANDOR_CREDENTIALS: path.join(setup.dir, 'by-hand.json'),
    });
    expect(login.stderr).not.toContain('candor:');
    expect(login.code).toBe(0);
    expect(setup.as.registrations).toHaveLength(0);
  });

  it('a bad "auth" entry is refused with the key and what is accepted', async () => {
    const cli = cliIn(setup);
    const result = await cli(['inspect', 'mcp.json#broken']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"auth".grant "client_credentials" needs "clientId"');
  });
});

describe('refusals that keep every other sign-in', () => {
  let setup: ProtectedSetup;
  beforeAll(async () => {
    setup = await startProtected({ registration: false });
  });
  afterAll(async () => {
    await setup.close();
  });

  const otherSignIn = {
    version: 1,
    signIns: {
      'https://other.example/mcp': {
        resource: 'https://other.example/mcp',
        issuer: 'https://auth.other.example',
        client: { client_id: 'kept' },
        tokens: { access_token: 'kept-access', token_type: 'Bearer', refresh_token: 'kept-refresh' },
      },
    },
  };

  it('dynamic registration refused: says which config keys to set', async () => {
    const cli = cliIn(setup);
    mkdirSync(path.dirname(setup.credentials), { recursive: true });
    writeFileSync(setup.credentials, JSON.stringify(otherSignIn));
    const before = readFileSync(setup.credentials, 'utf8');
    const login = await cli(['auth', 'login', setup.url]);
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('refused dynamic client registration');
    expect(login.stderr).toContain('"auth": { "clientId": "…", "clientSecretEnv": "NAME" }');
    expect(readFileSync(setup.credentials, 'utf8')).toBe(before);
  });
});

describe('a forged answer from the browser', () => {
  let setup: ProtectedSetup;
  beforeAll(async () => {
    setup = await startProtected();
  });
  afterAll(async () => {
    await setup.close();
  });

  for (const [tamper, expected] of [
    ['state', 'wrong state parameter'],
    ['iss', 'issuer'],
  ] as const) {
    it(`a wrong ${tamper} is refused and nothing is stored`, async () => {
      const cli = cliIn(setup);
      const login = await cli(['auth', 'login', setup.url], { OAUTH_BROWSER_TAMPER: tamper });
      expect(login.code).toBe(1);
      expect(login.stderr).toContain(expected);
      const status = await cli(['auth', 'status', setup.url, '--json']);
      const signIns = JSON.parse(status.stdout).signIns as Array<{ signedIn: boolean }>;
      expect(signIns.every((s) => !s.signedIn)).toBe(true);
    });
  }
});
