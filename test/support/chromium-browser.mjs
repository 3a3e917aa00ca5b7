#!/usr/bin/env node
/**
 * `$BROWSER` for the sign-in test that uses a real browser: headless Debian
 * Chromium, driven by playwright-core, signs in on oidc-provider's own login page,
 * presses Continue on its consent page, and waits for candor's "Signed in" page on the
 * loopback redirect. A screenshot of each page goes to $CHROMIUM_SHOTS when set.
 */
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const url = process.argv[2];
const shots = process.env.CHROMIUM_SHOTS;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage();
  // The provider's page styles ask for a web font; this machine has no network.
  await page.route(/fonts\.googleapis\.com/, (route) => route.abort());
  await page.goto(url);
  await page.fill('input[name="login"]', process.env.OAUTH_BROWSER_LOGIN ?? 'alice');
  await page.fill('input[name="password"]', 'secret');
  if (shots) await page.screenshot({ path: `${shots}/1-login.png` });
  await page.click('button[type="submit"]');
  await page.waitForSelector('input[name="prompt"][value="consent"]', { state: 'attached' });
  if (shots) await page.screenshot({ path: `${shots}/2-consent.png` });
  await page.click('button[type="submit"]');
  await page.waitForURL(/127\.0\.0\.1:\d+\/callback/);
  await page.waitForSelector('text=Signed in');
  if (shots) await page.screenshot({ path: `${shots}/3-signed-in.png` });
} catch (error) {
  // Spawned detached with no terminal: leave the reason where the test looks.
  if (shots) writeFileSync(`${shots}/error.txt`, String(error?.stack ?? error));
  throw error;
} finally {
  await browser.close();
}
