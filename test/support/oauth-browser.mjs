#!/usr/bin/env node
/**
 * A stand-in for a person at a browser, for `$BROWSER` in the sign-in tests:
 * it follows the authorization URL through oidc-provider's own login and consent forms
 * (cookies kept, redirects followed by hand) and finally calls the loopback redirect.
 *
 * Environment:
 *   OAUTH_BROWSER_LOGIN   the account to sign in as (default "alice")
 *   OAUTH_BROWSER_LOG     a file to append each authorization URL to (one per line)
 *   OAUTH_BROWSER_TAMPER  "state" | "iss": change that parameter of the answer
 *   OAUTH_BROWSER_REFUSE  "1": press nothing, and answer the redirect with error=access_denied
 */
import { appendFileSync } from 'node:fs';

const start = process.argv[2];
if (!start) {
  console.error('usage: oauth-browser.mjs <url>');
  process.exit(2);
}
if (process.env.OAUTH_BROWSER_LOG) appendFileSync(process.env.OAUTH_BROWSER_LOG, `${start}\n`);
const login = process.env.OAUTH_BROWSER_LOGIN ?? 'alice';
const tamper = process.env.OAUTH_BROWSER_TAMPER;
const cookies = new Map();

function remember(response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
  }
}
const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function go(url, init = {}) {
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...init.headers, cookie: cookieHeader() },
  });
  remember(response);
  return response;
}

let url = new URL(start);
let response = await go(url);
for (let step = 0; step < 20; step++) {
  if (process.env.OAUTH_BROWSER_DEBUG) console.error(step, response.status, url.href, response.headers.get('location'));
  const location = response.headers.get('location');
  if (location) {
    const next = new URL(location, url);
    if (next.pathname.endsWith('/callback')) {
      if (process.env.OAUTH_BROWSER_REFUSE === '1') {
        next.search = new URLSearchParams({
          error: 'access_denied',
          state: next.searchParams.get('state') ?? '',
        }).toString();
      }
      if (tamper === 'state') next.searchParams.set('state', 'forged-state');
      if (tamper === 'iss') next.searchParams.set('iss', 'https://attacker.example');
      await fetch(next);
      process.exit(0);
    }
    url = next;
    response = await go(url);
    continue;
  }
  const html = await response.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !prompt) {
    console.error(`oauth-browser: stuck at ${url} (${response.status}): ${html.slice(0, 300)}`);
    process.exit(1);
  }
  if (process.env.OAUTH_BROWSER_DEBUG) console.error('form', prompt, action);
  url = new URL(action.replaceAll('&amp;', '&'), url);
  const body = new URLSearchParams({ prompt, ...(prompt === 'login' ? { login, password: 'x' } : {}) });
  response = await go(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
}
console.error('oauth-browser: too many steps');
process.exit(1);
