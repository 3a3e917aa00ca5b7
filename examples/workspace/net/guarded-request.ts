/**
 * One HTTP(S) GET whose connection goes only to addresses the policy allows.
 *
 * The hostname is resolved here, every resolved address is checked, and the
 * socket connects to the address that was checked (a custom `lookup` hands the
 * checked result to `net.connect`), so a DNS server that answers differently on
 * the second query (DNS rebinding) cannot slip a private address in between the
 * check and the connection. IP literals never reach `lookup` and are checked
 * before the request.
 */
import { lookup as systemLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ToolError } from '../../../src/errors.js';
import type { HostResolver } from '../options.js';
import { type AddressPolicy, parseAddress } from './address-policy.js';

/** What came back from one request (no redirect following here). */
export interface GuardedResponse {
  status: number;
  statusText: string;
  headers: IncomingMessage['headers'];
  /** The body, at most `maxBytes` of it. */
  body: Buffer;
  /** True when the body was cut at `maxBytes`. */
  truncated: boolean;
  /** The address the socket connected to. */
  remoteAddress?: string;
}

export interface GuardedRequestOptions {
  policy: AddressPolicy;
  maxBytes: number;
  signal: AbortSignal;
  resolveHost?: HostResolver;
  /** Read the body (false for redirects: it is discarded). */
  readBody?: boolean;
}

const defaultResolver: HostResolver = (hostname) => systemLookup(hostname, { all: true, verbatim: true });

/**
 * Check a URL's host before connecting: IP literals against the policy now,
 * names later in the lookup.
 */
export function checkLiteralHost(url: URL, policy: AddressPolicy): void {
  const literal = parseAddress(url.hostname);
  if (!literal || policy.hostAllowed(url.hostname)) return;
  const verdict = policy.check(url.hostname);
  if (!verdict.allowed) throw blocked(url, verdict.reason);
}

function blocked(url: URL, reason: string): ToolError {
  return new ToolError(
    `Refused to fetch ${url.origin}: ${reason}. web_fetch only reaches public internet addresses unless the operator allows more (allowedHosts / allowPrivateNetwork).`,
    { code: 'address_blocked' },
  );
}

/** A `lookup` for `http.request` that resolves, checks every address, and returns only checked ones. */
function guardedLookup(url: URL, options: GuardedRequestOptions): LookupFunction {
  const resolve = options.resolveHost ?? defaultResolver;
  const trusted = options.policy.hostAllowed(url.hostname);
  return (hostname, lookupOptions, callback) => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new ToolError(`${hostname} did not resolve to any address.`);
        if (!trusted) {
          for (const { address } of addresses) {
            const verdict = options.policy.check(address);
            // Refuse when any answer is off limits: a rebinding server mixes a public and a private one.
            if (!verdict.allowed) throw blocked(url, `${hostname} resolves to ${verdict.reason}`);
          }
        }
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        if (lookupOptions.all) callback(null, usable);
        else if (usable[0]) callback(null, usable[0].address, usable[0].family);
        else
          callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
      })
      .catch((error: Error) => {
        callback(error as NodeJS.ErrnoException, '', 0);
      });
  };
}

/**
 * Send one GET and read up to `maxBytes` of the body.
 *
 * @example
 * ```ts
 * const res = await guardedGet(new URL('https://example.com/'), { policy, maxBytes: 1 << 20, signal });
 * ```
 */
export function guardedGet(url: URL, options: GuardedRequestOptions): Promise<GuardedResponse> {
  checkLiteralHost(url, options.policy);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<GuardedResponse>((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'GET',
        headers: {
          'user-agent': 'candor-workspace/0.1 (web_fetch; +https://github.com/candor)',
          accept: 'text/html,application/json,text/plain;q=0.9,*/*;q=0.5',
          'accept-encoding': 'identity',
        },
        lookup: guardedLookup(url, options),
        signal: options.signal,
        // A fresh connection per request: a pooled socket could outlive the check.
        agent: false,
      },
      (response) => {
        const remoteAddress = response.socket?.remoteAddress;
        const base = {
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: response.headers,
          ...(remoteAddress ? { remoteAddress } : {}),
        };
        if (options.readBody === false) {
          response.resume();
          response.on('end', () => resolve({ ...base, body: Buffer.alloc(0), truncated: false }));
          response.on('error', reject);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        response.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = options.maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            resolve({ ...base, body: Buffer.concat(chunks), truncated });
            request.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => resolve({ ...base, body: Buffer.concat(chunks), truncated }));
        response.on('error', (error) => (truncated ? undefined : reject(error)));
      },
    );
    request.on('error', reject);
    request.end();
  });
}
