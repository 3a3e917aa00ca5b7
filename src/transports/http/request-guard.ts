/**
 * Origin and Host checks (spec 2025-06-18+, transports, "Security Warning":
 * servers MUST validate `Origin` on every request; local servers are the
 * target of DNS rebinding, where a web page's own host name is made to resolve
 * to 127.0.0.1 so the browser talks to the local server as a "same-origin"
 * site). Refused requests get HTTP 403.
 *
 * Policy:
 * - `Origin`: absent is fine (not a browser, or a same-origin GET). With
 *   `allowedOrigins`, it must be one of them (`'*'` allows any). Otherwise, on
 *   a loopback-bound server only http(s)://localhost | 127.0.0.1 | [::1] (any
 *   port) pass; on any other server only the request's own origin
 *   (the Origin's host equals the `Host` header).
 * - `Host`: with `allowedHosts`, it must be one of them (a bare host name
 *   matches any port). Otherwise, on a loopback-bound server it must name
 *   localhost, 127.0.0.1 or [::1]; elsewhere it is not checked.
 */
import { quoteHeader } from './responses.js';

/** Options of {@link RequestGuard}. */
export interface RequestGuardOptions {
  /**
   * The address the server is bound to. Undefined: decided per request from
   * the local address the connection arrived on, or treated as loopback when
   * that is unknown (fetch handlers), which is the safe default.
   */
  host?: string;
  /** Origins allowed besides none (`'*'` = any), e.g. `['https://app.example.com']`. */
  allowedOrigins?: readonly string[];
  /** Host header values allowed, e.g. `['mcp.example.com', 'localhost:3000']`. */
  allowedHosts?: readonly string[];
}

const LOCAL_HOSTNAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether an address (as bound, or as `socket.localAddress`) is loopback.
 *
 * @example
 * ```ts
 * isLoopbackAddress('127.0.0.1'); // true
 * isLoopbackAddress('::ffff:127.0.0.1'); // true
 * isLoopbackAddress('0.0.0.0'); // false
 * ```
 */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase();
  if (a === 'localhost' || a === '::1' || a === '[::1]') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * The host name part of a `host[:port]` authority, lower-cased (`[::1]:3000` → `[::1]`).
 *
 * @example
 * ```ts
 * hostnameOf('LocalHost:3000'); // 'localhost'
 * ```
 */
export function hostnameOf(authority: string): string {
  const a = authority.toLowerCase();
  if (a.startsWith('[')) {
    const end = a.indexOf(']');
    return end < 0 ? a : a.slice(0, end + 1);
  }
  const colon = a.indexOf(':');
  return colon < 0 ? a : a.slice(0, colon);
}

/** The authority (`host[:port]`) of an `http(s)://…` origin, or undefined when it is not one. */
function authorityOfOrigin(origin: string): string | undefined {
  const match = /^https?:\/\/([^/?#\s@]+)\/?$/i.exec(origin);
  return match?.[1]?.toLowerCase();
}

/**
 * Decides whether a request's `Origin` and `Host` are acceptable. Built once
 * per handler; `check` runs on every request and allocates nothing when the
 * request passes.
 *
 * @example
 * ```ts
 * const guard = new RequestGuard({ host: '127.0.0.1' });
 * guard.check('https://evil.example', 'localhost:3000'); // 'Forbidden: …'
 * ```
 */
export class RequestGuard {
  readonly #boundLocal: boolean | undefined;
  readonly #anyOrigin: boolean;
  readonly #origins: ReadonlySet<string> | undefined;
  readonly #hosts: ReadonlySet<string> | undefined;
  /**
   * The last local address and the last localhost Host header seen, with the address's verdict:
   * requests repeat them, so each is worked out once, not per request.
   */
  #lastAddress: string | undefined;
  #lastAddressLocal = true;
  #localHost: string | undefined;

  constructor(options: RequestGuardOptions = {}) {
    const { host, allowedOrigins, allowedHosts } = options;
    this.#boundLocal = host === undefined ? undefined : isLoopbackAddress(host);
    this.#anyOrigin = allowedOrigins?.includes('*') ?? false;
    this.#origins =
      allowedOrigins === undefined ? undefined : new Set(allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
    this.#hosts = allowedHosts === undefined ? undefined : new Set(allowedHosts.map((h) => h.toLowerCase()));
  }

  /**
   * Returns why the request is refused, or undefined when it may proceed.
   * `connection.localAddress` is the address the connection arrived on, when
   * known; it is read only when the bound host was not given.
   */
  check(
    origin: string | undefined,
    host: string | undefined,
    connection?: { readonly localAddress: string | undefined },
  ): string | undefined {
    const local = this.#boundLocal ?? this.#isLocal(connection?.localAddress);
    if (this.#hosts !== undefined) {
      if (host === undefined || !(this.#hosts.has(host.toLowerCase()) || this.#hosts.has(hostnameOf(host)))) {
        return `Forbidden: the Host header ${quoteHeader(host)} is not one of the allowed hosts.`;
      }
    } else if (local && (host === undefined || host !== this.#localHost)) {
      if (host === undefined || !LOCAL_HOSTNAMES.has(hostnameOf(host))) {
        return `Forbidden: the Host header ${quoteHeader(host)} is not a localhost name; this server is bound to a loopback address (DNS rebinding protection; set allowedHosts to accept other names).`;
      }
      this.#localHost = host;
    }
    if (origin === undefined || this.#anyOrigin) return undefined;
    if (this.#origins !== undefined) {
      if (this.#origins.has(origin.toLowerCase().replace(/\/$/, ''))) return undefined;
      return `Forbidden: the Origin ${quoteHeader(origin)} is not one of the allowed origins.`;
    }
    const authority = authorityOfOrigin(origin);
    if (local) {
      if (authority !== undefined && LOCAL_HOSTNAMES.has(hostnameOf(authority))) return undefined;
      return `Forbidden: the Origin ${quoteHeader(origin)} is not a localhost origin (DNS rebinding protection; set allowedOrigins to accept it).`;
    }
    if (authority !== undefined && host !== undefined && authority === host.toLowerCase()) return undefined;
    return `Forbidden: the Origin ${quoteHeader(origin)} is not this server's origin (set allowedOrigins to accept it).`;
  }

  #isLocal(address: string | undefined): boolean {
    // Unknown local addresses (fetch handlers) get the safe default: loopback rules.
    if (address === undefined) return true;
    if (address !== this.#lastAddress) {
      this.#lastAddressLocal = isLoopbackAddress(address);
      this.#lastAddress = address;
    }
    return this.#lastAddressLocal;
  }
}
