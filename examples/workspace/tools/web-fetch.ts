/**
 * `web_fetch`: GET a web page or API response as text. http and https only;
 * size and time limits; redirects followed by hand, each hop checked by the same
 * address policy (a public page that redirects to 127.0.0.1 is refused).
 */
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { CallToolResult, ToolDefinition } from '../../../src/tool/types.js';
import { AddressPolicy } from '../net/address-policy.js';
import { type GuardedResponse, guardedGet } from '../net/guarded-request.js';
import { formatBytes } from '../text-files.js';
import { TAGS, type WorkspaceContext } from './context.js';

const input = z.object({
  url: z.string().describe('The http:// or https:// URL to fetch.'),
  maxBytes: z.number().int().min(1).optional().describe('Read at most this many bytes of the body.'),
});

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const BINARY_TYPES = /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|x-tar|wasm|x-7z|vnd\.)/i;

/**
 * Make the `web_fetch` tool.
 *
 * @example
 * ```ts
 * registry.add(webFetchTool(ws)); // public addresses only
 * registry.add(webFetchTool({ ...ws, options: { ...ws.options, allowedHosts: ['localhost'] } }));
 * ```
 */
export function webFetchTool(ws: WorkspaceContext): ToolDefinition {
  const { limits, options } = ws;
  const policy = new AddressPolicy({
    allowPrivateNetwork: options.allowPrivateNetwork,
    allowedHosts: options.allowedHosts,
  });
  return defineTool({
    name: 'web_fetch',
    title: 'Fetch URL',
    description: `Fetch an http(s) URL and return the response body as text (at most ${formatBytes(limits.maxFetchBytes)}, ${limits.fetchTimeoutMs / 1000} s). Public internet addresses only; redirects are followed (up to ${limits.maxRedirects}). Binary content is refused.`,
    input,
    effect: 'read',
    world: 'open',
    tags: [TAGS.web, TAGS.read],
    category: 'web',
    timeoutMs: limits.fetchTimeoutMs + 5000,
    handler: async ({ url, maxBytes }, ctx): Promise<CallToolResult> => {
      let current = parseUrl(url);
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(limits.fetchTimeoutMs)]);
      const cap = Math.min(maxBytes ?? limits.maxFetchBytes, limits.maxFetchBytes);
      const hops: string[] = [];
      for (let redirects = 0; ; redirects++) {
        const response = await get(current, { policy, maxBytes: cap, signal, resolveHost: options.resolveHost });
        const location = response.headers.location;
        if (!REDIRECTS.has(response.status) || location === undefined) return toResult(current, response, hops);
        if (redirects >= limits.maxRedirects) {
          throw new ToolError(`Too many redirects (more than ${limits.maxRedirects}) starting at ${url}.`, {
            code: 'redirect_loop',
          });
        }
        hops.push(`${response.status} ${current.href}`);
        current = parseUrl(location, current);
      }
    },
  });
}

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new ToolError(`${JSON.stringify(text)} is not a valid URL; pass an absolute http:// or https:// URL.`, {
      code: 'bad_url',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const where = base ? ` (redirected from ${base.href})` : '';
    throw new ToolError(`Only http and https URLs can be fetched; got ${url.protocol}${where}.`, {
      code: 'bad_url',
    });
  }
  return url;
}

async function get(url: URL, options: Parameters<typeof guardedGet>[1]): Promise<GuardedResponse> {
  try {
    return await guardedGet(url, options);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (options.signal.aborted) {
      const reason = options.signal.reason as Error | undefined;
      const timedOut = reason?.name === 'TimeoutError';
      throw new ToolError(timedOut ? `Fetching ${url.href} timed out.` : `Fetching ${url.href} was cancelled.`, {
        code: 'timeout',
      });
    }
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `The host ${url.hostname} could not be resolved.`
        : code === 'ECONNREFUSED'
          ? `${url.host} refused the connection.`
          : code === 'ECONNRESET'
            ? `${url.host} closed the connection.`
            : `Fetching ${url.href} failed: ${(error as Error).message}`;
    throw new ToolError(message, { code: 'fetch_failed', cause: error });
  }
}

function toResult(url: URL, response: GuardedResponse, hops: string[]): CallToolResult {
  const type = String(response.headers['content-type'] ?? '');
  if (BINARY_TYPES.test(type) || response.body.subarray(0, 8192).includes(0)) {
    throw new ToolError(
      `${url.href} returned binary content (${type || 'unknown type'}); web_fetch returns text only.`,
      { code: 'binary' },
    );
  }
  const text = decode(response.body, type);
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const header = [
    `${status} · ${type || 'no content type'} · ${formatBytes(response.body.length)}${response.truncated ? ' (truncated)' : ''}`,
    `URL: ${url.href}`,
    ...hops.map((h) => `redirected: ${h}`),
  ].join('\n');
  return {
    content: [{ type: 'text', text: `${header}\n\n${text}${response.truncated ? '\n[body truncated]' : ''}` }],
    structuredContent: {
      url: url.href,
      status: response.status,
      contentType: type,
      bytes: response.body.length,
      truncated: response.truncated,
    },
  };
}

function decode(body: Buffer, type: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(type)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
