#!/usr/bin/env node
/**
 * A stand-in for a person at a browser, for `$BROWSER` in the sign-in tests:
 * it follows the authorization URL through oidc-provider's own login and consent forms
 * (cookies kept, redirects followed by hand) and finally calls the loopback redirect.
 *
 * A gateway's sign-in link goes through the gateway's own sign-in first (its callback is
 * followed like any redirect, cookies kept); the last callback is the one that ends the run.
 * A page that is neither a form nor a redirect (a refusal) is printed on stdout, exit 4.
 *
 * Environment:
 *   OAUTH_BROWSER_LOGIN   the account to sign in as (default "alice"); "person,account" signs
 *                         in as each in turn, one per login form
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
const logins = (process.env.OAUTH_BROWSER_LOGIN ?? 'alice').split(',');
const nextLogin = () => (logins.length > 1 ? logins.shift() : logins[0]);
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
    if (next.pathname.endsWith('/callback') && next.pathname !== '/oauth/gateway/callback') {
      if (process.env.OAUTH_BROWSER_REFUSE === '1') {
        next.search = new URLSearchParams({
          error: 'access_denied',
          state: next.searchParams.get('state') ?? '',
        }).toString();
      }
      if (tamper === 'state') next.searchParams.set('state', 'forged-state');
      if (tamper === 'iss') next.searchParams.set('iss', 'https://attacker.example');
      const last = await go(next);
      process.stdout.write(`${last.status}\n${await last.text()}\n`);
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
    process.stdout.write(`${response.status}\n${html}\n`);
    console.error(`oauth-browser: stopped at ${url} (${response.status}): ${html.slice(0, 300)}`);
    process.exit(4);
  }
  if (process.env.OAUTH_BROWSER_DEBUG) console.error('form', prompt, action);
  url = new URL(action.replaceAll('&amp;', '&'), url);
  const body = new URLSearchParams({ prompt, ...(prompt === 'login' ? { login: nextLogin(), password: 'x' } : {}) });
  response = await go(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
}
console.error('oauth-browser: too many steps');
process.exit(1);
