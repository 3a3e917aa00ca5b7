/**
 * One allowed network destination, `host:port`. Host names are mapped
 * to a loopback address of the sandbox through its own /etc/hosts; literal
 * addresses must be loopback ones (the sandbox's namespace has no other).
 */
import { isIP } from 'node:net';

/** A parsed destination. */
export interface Destination {
  host: string;
  port: number;
  /**
   * Where the bridge connects outside, when not `host:port` itself: a service double's
   * loopback listener standing in for a remote API (`api.example.com:443` inside).
   */
  target?: { host: string; port: number };
}

/**
 * `host:port` (`[::1]:8080` for IPv6) as a destination, or the reason it is not one.
 *
 * @example
 * ```ts
 * parseDestination('api.github.com:443'); // { host: 'api.github.com', port: 443 }
 * ```
 */
export function parseDestination(text: string): Destination | string {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text);
  if (!match)
    return `expected "host:port" (e.g. "api.github.com:443" or "127.0.0.1:8080"); got ${JSON.stringify(text)}.`;
  const host = match[1] ?? match[2]!;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return `port ${port} is out of range (1–65535).`;
  const family = isIP(host);
  if (family === 4 && !host.startsWith('127.')) {
    return `${host} is not a loopback address; name the host (it is mapped through the sandbox's /etc/hosts) instead of its IP address.`;
  }
  if (family === 6 && host !== '::1')
    return `${host} is not a loopback address; name the host instead of its IP address.`;
  if (family === 0 && !/[A-Za-z]/.test(host)) return `${JSON.stringify(host)} is not a host name.`;
  return { host, port };
}
