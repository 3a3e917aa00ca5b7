/**
 * The parts of an OAuth client test: a real authorization server
 * (`oidc-provider`) and `candor serve --example workspace --auth-issuer …` as the
 * protected MCP server in front of it, a private credentials file, and `$BROWSER`
 * pointing at the scripted browser.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, REPO } from './cli-harness.js';
import { type OidcServer, type OidcServerOptions, startOidcServer } from './oidc-server.js';

export const SCOPES = ['files:read', 'files:write', 'files:delete'];
export const BROWSER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'oauth-browser.mjs');

export interface ProtectedSetup {
  as: OidcServer;
  /** The protected MCP endpoint (also the resource). */
  url: string;
  dir: string;
  /** The credentials file the CLI runs use. */
  credentials: string;
  /** Environment for CLI runs: credentials file, `$BROWSER`, no CI flag games. */
  env: NodeJS.ProcessEnv;
  serverStderr(): string;
  close(): Promise<void>;
}

/** A free loopback port (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Start the authorization server and the protected workspace server.
 *
 * @example
 * ```ts
 * const setup = await startProtected();
 * await runCli(['auth', 'login', setup.url], { env: setup.env });
 * ```
 */
export async function startProtected(options: Partial<OidcServerOptions> = {}): Promise<ProtectedSetup> {
  const dir = mkdtempSync(path.join(tmpdir(), 'candor-oauth-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const as = await startOidcServer({ resource: url, scopes: SCOPES, ...options });
  let stderr = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [
      CLI,
      'serve',
      '--example',
      'workspace',
      '--root',
      dir,
      '--http',
      `127.0.0.1:${port}`,
      '--auth-issuer',
      as.issuer,
      '--auth-scopes',
      SCOPES.join(','),
    ],
    { cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`candor serve did not start.\n${stdout}\n${stderr}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      if (stdout.includes('MCP endpoint:')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`candor serve exited (${code}).\n${stdout}\n${stderr}`));
    });
  });
  const credentials = path.join(dir, 'config', 'candor', 'credentials.json');
  return {
    as,
    url,
    dir,
    credentials,
    env: { CANDOR_CREDENTIALS: credentials, BROWSER: BROWSER_SCRIPT, CI: '' },
    serverStderr: () => stderr,
    async close() {
      child.kill('SIGTERM');
      await as.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
