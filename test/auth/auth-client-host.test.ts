/**
 * OAuth sign-ins in `createHost` and `candor gateway`, against the real
 * authorization server (oidc-provider) and `candor serve --auth-issuer …`: without a
 * sign-in the server fails with the line naming `candor auth login …` (the gateway keeps
 * serving its other upstreams and says so in its status resource), and once signed in
 * from the CLI the host and the gateway use and refresh the stored sign-in.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialsStore } from '../../src/auth/client/credentials-store.js';
import { signIn } from '../../src/auth/client/sign-in.js';
import { createHost } from '../../src/host/host.js';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { BROWSER_SCRIPT, type ProtectedSetup, startProtected } from '../support/oauth-client-fixture.js';

beforeAll(() => ensureBuilt());

const require = createRequire(import.meta.url);

/** The scripted browser, as a library caller's `open`. */
const scriptedBrowser = (url: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [BROWSER_SCRIPT, url], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });

describe('createHost with an OAuth server', () => {
  let setup: ProtectedSetup;
  beforeAll(async () => {
    setup = await startProtected();
  });
  afterAll(async () => {
    await setup.close();
  });

  it('fails with the sign-in command, then works once signed in (library sign-in)', async () => {
    const credentials = new CredentialsStore(setup.credentials);
    const servers = { notes: { url: setup.url, auth: 'oauth' as const, trust: 'trusted' as const } };
    await expect(createHost({ servers, credentials })).rejects.toThrow(
      `notes: notes needs sign-in: candor auth login ${setup.url}`,
    );
    const optional = await createHost({ servers: { notes: { ...servers.notes, optional: true } }, credentials });
    try {
      expect(optional.servers()[0]).toMatchObject({
        status: 'failed',
        signIn: `candor auth login ${setup.url}`,
      });
    } finally {
      await optional.close();
    }

    const result = await signIn({
      serverUrl: setup.url,
      store: credentials,
      label: 'notes',
      loginCommand: `candor auth login ${setup.url}`,
      open: scriptedBrowser,
    });
    expect(result.refreshable).toBe(true);

    writeFileSync(path.join(setup.dir, 'hello.txt'), 'from the host');
    const host = await createHost({ servers, credentials });
    try {
      const outcome = await host.call('notes__read_file', { path: 'hello.txt' });
      expect(outcome.status).toBe('ok');
      expect(JSON.stringify(outcome.result)).toContain('from the host');
    } finally {
      await host.close();
    }
  });
});

describe('candor gateway with an OAuth upstream', () => {
  let setup: ProtectedSetup;
  beforeAll(async () => {
    setup = await startProtected();
  });
  afterAll(async () => {
    await setup.close();
  });

  it('says "needs sign-in" in status and stderr, keeps serving the rest, and picks the server up after login', async () => {
    writeFileSync(
      path.join(setup.dir, 'candor.gateway.json'),
      JSON.stringify({
        reconnect: { initialDelayMs: 200, maxDelayMs: 400 },
        servers: {
          notes: { url: setup.url, auth: 'oauth', trust: 'trusted' },
          local: {
            command: process.execPath,
            args: [
              '--import',
              pathToFileURL(require.resolve('tsx')).href,
              path.join(REPO, 'test', 'fixtures', 'stdio-server.ts'),
            ],
          },
        },
      }),
    );
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'gateway', '--config', 'candor.gateway.json', '--stdio'],
      cwd: setup.dir,
      env: { ...(process.env as Record<string, string>), ...(setup.env as Record<string, string>) },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const client = new Client({ name: 'test', version: '0' });
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
    });
    await client.connect(transport).catch((error: Error) => {
      throw new Error(`${error.message}\n${stderr}`);
    });
    try {
      const before = await client.listTools();
      if (!before.tools.some((t) => t.name.startsWith('local__'))) throw new Error(`no local tools\n${stderr}`);
      expect(before.tools.some((t) => t.name.startsWith('local__'))).toBe(true);
      expect(before.tools.some((t) => t.name.startsWith('notes__'))).toBe(false);
      const status = await client.readResource({ uri: 'candor://gateway/status' });
      const upstreams = JSON.parse((status.contents[0] as { text: string }).text);
      const notes = (Array.isArray(upstreams) ? upstreams : upstreams.upstreams).find(
        (u: { name: string }) => u.name === 'notes',
      );
      expect(notes).toMatchObject({
        state: 'down',
        error: 'needs sign-in: candor auth login candor.gateway.json#notes',
        signIn: 'candor auth login candor.gateway.json#notes',
      });
      expect(stderr).toContain('notes: needs sign-in: candor auth login candor.gateway.json#notes');

      const login = await runCli(['auth', 'login', 'candor.gateway.json#notes'], { cwd: setup.dir, env: setup.env });
      expect(login.code).toBe(0);
      await expect
        .poll(async () => (await client.listTools()).tools.some((t) => t.name === 'notes__read_file'), {
          timeout: 20_000,
        })
        .toBe(true);
      expect(changed).toBeGreaterThan(0);
      writeFileSync(path.join(setup.dir, 'g.txt'), 'through the gateway');
      const result = await client.callTool({ name: 'notes__read_file', arguments: { path: 'g.txt' } });
      expect(JSON.stringify(result.content)).toContain('through the gateway');
    } finally {
      await client.close();
    }
    expect(stderr).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  });
});
