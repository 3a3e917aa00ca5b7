/**
 * The browser-facing pages of per-person sign-ins (the link, the gateway's own
 * callback, the upstream's callback) as HTTP handlers: GET only, never cached,
 * no referrer (the URLs carry codes and sealed states), no scripts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { signInPage } from '../auth/client/loopback-redirect.js';
import type { HttpHandler } from '../transports/http/create-http-handler.js';

/** What a page answers: a page, or a redirect; cookies to set. */
export interface PageAnswer {
  status: number;
  html?: string;
  location?: string;
  cookies?: string[];
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
};

/**
 * A handler (mount it on the gateway's listener) answering GETs with `answer`.
 *
 * @example
 * ```ts
 * mounts['/oauth/upstream/connect'] = pageHandler(origin, (url, cookie) => check.connect(url, cookie));
 * ```
 */
export function pageHandler(
  base: string,
  answer: (url: URL, cookie: string | undefined) => Promise<PageAnswer>,
): HttpHandler {
  return {
    nodeHandler: async (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== 'GET') {
        res.writeHead(405, { allow: 'GET', ...PAGE_HEADERS }).end(signInPage('Method not allowed', 'Use GET.'));
        return;
      }
      const page = await answer(new URL(req.url ?? '/', base), req.headers.cookie);
      res.writeHead(page.status, headersOf(page)).end(page.html ?? '');
    },
    fetchHandler: async (request) => {
      if (request.method !== 'GET')
        return new Response(signInPage('Method not allowed', 'Use GET.'), {
          status: 405,
          headers: { allow: 'GET', ...PAGE_HEADERS },
        });
      const page = await answer(new URL(request.url), request.headers.get('cookie') ?? undefined);
      const headers = new Headers(PAGE_HEADERS);
      if (page.location !== undefined) headers.set('location', page.location);
      for (const cookie of page.cookies ?? []) headers.append('set-cookie', cookie);
      return new Response(page.html ?? null, { status: page.status, headers });
    },
    close: async () => {},
    sessionCount: 0,
  };
}

function headersOf(page: PageAnswer): Record<string, string | string[]> {
  return {
    ...PAGE_HEADERS,
    ...(page.location === undefined ? {} : { location: page.location }),
    ...(page.cookies === undefined ? {} : { 'set-cookie': page.cookies }),
  };
}
