/**
 * One sign-in through a real browser: `candor auth login` with `$BROWSER`
 * set to headless Debian Chromium (playwright-core), which signs in on oidc-provider's
 * own login and consent pages and lands on candor's loopback redirect.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';
import { type ProtectedSetup, startProtected } from '../support/oauth-client-fixture.js';

const CHROMIUM_BROWSER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'support',
  'chromium-browser.mjs',
);

describe('candor auth login in headless Chromium', () => {
  let setup: ProtectedSetup;
  beforeAll(async () => {
    ensureBuilt();
    setup = await startProtected();
  });
  afterAll(async () => {
    await setup.close();
  });

  it("signs in on the provider's own login and consent pages, then inspect works", { timeout: 150_000 }, async () => {
    const shots = mkdtempSync(path.join(tmpdir(), 'candor-oauth-shots-'));
    const env = { ...setup.env, BROWSER: CHROMIUM_BROWSER, CHROMIUM_SHOTS: shots };
    const login = await runCli(['auth', 'login', setup.url, '--timeout', '90'], { env, timeoutMs: 120_000 });
    expect(login.stderr).not.toContain('candor:');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Signed in to');
    // The browser takes its last screenshot after candor already has the code.
    await expect
      .poll(() => readdirSync(shots).sort(), { timeout: 20_000 })
      .toEqual(['1-login.png', '2-consent.png', '3-signed-in.png']);
    const inspect = await runCli(['inspect', setup.url], { env: setup.env });
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain('read_file');
  });
});
