/**
 * The local page double: a small HTTP site (links, a table, a search form, an order form
 * that POSTs) for browser servers to act on. The browser inside the sandbox reaches it at
 * `http://127.0.0.1:<port>/` (a loopback destination carried in by the network bridge),
 * so navigating it stays a closed world. Its witness records each page navigated to and
 * each form submitted (method and path; never what was typed into the form).
 */

import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { recordedPath } from './https-recorder.js';
import { html, PAGE_ITEMS, PAGE_PATHS, pageFor, submittedPage } from './page-site.js';
import type { DoubleOptions, StartedDouble, WitnessChange } from './types.js';

/** Requests a browser makes on its own for every site: never a tool's navigation. */
const BROWSER_OWN = new Set(['/favicon.ico', '/robots.txt', '/apple-touch-icon.png']);

function answer(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  response.end(body);
}

/** What one request to the page was, for the witness (`undefined`: the browser's own). */
function changeOf(request: IncomingMessage): Extract<WitnessChange, { kind: 'page' }> | undefined {
  const url = request.url ?? '/';
  const method = (request.method ?? 'GET').toUpperCase();
  const path = recordedPath(url);
  if (BROWSER_OWN.has(path)) return undefined;
  if (method === 'GET' || method === 'HEAD') {
    // A GET form sends its fields as the query: a search submitted, not a link followed.
    const submitted = path === '/search' && url.includes('?');
    return { kind: 'page', action: submitted ? 'submit' : 'navigate', path, method };
  }
  return { kind: 'page', action: 'submit', path, method };
}

/**
 * Start the page double.
 *
 * @example
 * ```ts
 * const page = await startPageDouble({ dir: '/tmp/candor-double-page' });
 * page.values.url; // 'http://127.0.0.1:40211/'
 * ```
 */
export async function startPageDouble(options: DoubleOptions): Promise<StartedDouble> {
  const recorded: WitnessChange[] = [];
  let marked = 0;
  const server = createServer((request, response) => {
    const change = changeOf(request);
    if (change) recorded.push(change);
    // The form's fields are never read: drained, so the browser sees its answer.
    request.resume();
    request.once('end', () => {
      if (change?.action === 'submit' && change.method !== 'GET') {
        answer(
          response,
          change.path === '/order' ? 200 : 404,
          html(change.path === '/order' ? submittedPage() : pageFor(change.path, '')),
        );
        return;
      }
      const url = request.url ?? '/';
      const at = url.indexOf('?');
      const page = pageFor(change?.path ?? recordedPath(url), at >= 0 ? url.slice(at + 1) : '');
      answer(response, page.status, html(page));
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(options.dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  options.signal?.addEventListener('abort', () => void stop(), { once: true });
  const base = `http://127.0.0.1:${port}`;
  return {
    kind: 'page',
    env: {},
    mounts: [],
    hosts: [],
    destinations: [`127.0.0.1:${port}`],
    values: { url: `${base}/` },
    seeds: {
      urls: PAGE_PATHS.map((p) => `${base}${p}`),
      paths: [...PAGE_PATHS],
      names: PAGE_ITEMS.map((item) => item.name),
      selectors: ['#items', '#search', '#order', 'a[href="/items/1"]', 'input[name="q"]', 'button[type="submit"]'],
    },
    witness: {
      mark: async () => {
        marked = recorded.length;
      },
      changes: async () => recorded.slice(marked),
    },
    stop,
  };
}
