/**
 * A remote named by a `server.json` is an address someone else wrote: before
 * connecting, its host must resolve only to public unicast addresses, so a
 * catalog entry cannot steer a scan into the scanning machine's own network
 * (loopback, private ranges, link-local where cloud metadata services answer).
 * The person can open it with `allowPrivateNetwork`.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { CandorError } from '../errors.js';

/** The range of one address (`unicast` for a public one); IPv4-mapped IPv6 counts as its IPv4 address. */
function rangeOf(address: string): string {
  if (!ipaddr.isValid(address)) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    return (parsed as ipaddr.IPv6).toIPv4Address().range();
  return parsed.range();
}

/**
 * Throw unless every address `url`'s host resolves to is public unicast.
 * The check is made once, before connecting; a host whose DNS answers change
 * between the check and the connection is not caught.
 *
 * @example
 * ```ts
 * await checkRemoteAddress('https://mcp.example.com/mcp', { file: 'server.json' });
 * ```
 */
export async function checkRemoteAddress(url: string, where: { file: string; entry: string }): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch (error) {
    throw new CandorError(
      `${where.file}: ${where.entry}: cannot resolve ${host} (${(error as NodeJS.ErrnoException).code ?? error}).`,
      {
        code: 'target_unreachable',
        cause: error,
      },
    );
  }
  const refused = addresses.map((a) => [a, rangeOf(a)] as const).filter(([, range]) => range !== 'unicast');
  if (refused.length > 0) {
    const [address, range] = refused[0]!;
    throw new CandorError(
      `${where.file}: ${where.entry}: ${url} resolves to ${address} (${range}), not a public address; a server.json's remote must be public unless you pass --allow-private-network.`,
      { code: 'invalid_target' },
    );
  }
}
