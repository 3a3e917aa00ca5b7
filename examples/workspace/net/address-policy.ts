/**
 * Which addresses `web_fetch` may connect to. By default only public unicast
 * addresses: loopback, private (RFC 1918, unique-local), link-local (where cloud
 * metadata services live, 169.254.169.254 and fd00:ec2::254), carrier-grade NAT,
 * unspecified, broadcast, multicast, reserved, and IPv6 forms that embed an IPv4
 * address (IPv4-mapped, NAT64, 6to4, Teredo) are refused, so a model cannot be
 * steered into reaching the operator's internal network (SSRF).
 *
 * The operator can open it up: `allowPrivateNetwork` allows every address;
 * `allowedHosts` allows named hosts, IP literals and CIDR ranges.
 */
import ipaddr from 'ipaddr.js';

/** The decision for one address. */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** Operator settings, as in `WorkspaceOptions`. */
export interface AddressPolicyOptions {
  allowPrivateNetwork?: boolean;
  allowedHosts?: readonly string[];
}

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Parse an IP address (IPv6 with or without brackets); IPv4-mapped IPv6
 * addresses come back as the IPv4 address they carry.
 */
export function parseAddress(text: string): Parsed | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  // Zone ids (fe80::1%eth0) are link-local by definition; parse without the zone.
  const withoutZone = bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare;
  if (!ipaddr.isValid(withoutZone)) return undefined;
  const parsed = ipaddr.parse(withoutZone);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

/**
 * The special-purpose range an address belongs to, or `unicast` for a public one.
 *
 * @example
 * ```ts
 * addressRange('169.254.169.254'); // 'linkLocal'
 * addressRange('::ffff:127.0.0.1'); // 'loopback'
 * ```
 */
export function addressRange(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed) return 'invalid';
  return parsed.range();
}

/**
 * Decide addresses and hosts for `web_fetch`.
 *
 * @example
 * ```ts
 * const policy = new AddressPolicy({ allowedHosts: ['localhost'] });
 * policy.hostAllowed('localhost'); // true: its addresses are not checked
 * policy.check('10.0.0.1'); // { allowed: false, reason: '10.0.0.1 is a private address' }
 * ```
 */
export class AddressPolicy {
  readonly #allowAll: boolean;
  readonly #hosts = new Set<string>();
  readonly #suffixes: string[] = [];
  readonly #ranges: Array<[Parsed, number]> = [];

  constructor(options: AddressPolicyOptions = {}) {
    this.#allowAll = options.allowPrivateNetwork === true;
    for (const raw of options.allowedHosts ?? []) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      if (entry.includes('/')) {
        try {
          const [address, bits] = ipaddr.parseCIDR(entry);
          const mapped = address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress();
          this.#ranges.push(mapped ? [(address as ipaddr.IPv6).toIPv4Address(), bits - 96] : [address as Parsed, bits]);
        } catch {
          throw new TypeError(`allowedHosts: "${raw}" is not a valid CIDR range.`);
        }
      } else if (entry.startsWith('*.')) {
        this.#suffixes.push(entry.slice(1));
      } else {
        const literal = parseAddress(entry);
        this.#hosts.add(literal ? literal.toString() : entry);
      }
    }
  }

  /** True when the operator allowed this hostname (or IP literal) by name: its addresses are not checked. */
  hostAllowed(hostname: string): boolean {
    if (this.#allowAll) return true;
    const host = hostname.toLowerCase().replace(/\.$/, '');
    const literal = parseAddress(host);
    const key = literal ? literal.toString() : host;
    if (this.#hosts.has(key)) return true;
    return !literal && this.#suffixes.some((suffix) => host.endsWith(suffix) && host.length > suffix.length);
  }

  /** Whether `web_fetch` may connect to this resolved address. */
  check(address: string): AddressVerdict {
    const parsed = parseAddress(address);
    if (!parsed) return { allowed: false, reason: `${address} is not an IP address` };
    if (this.#allowAll) return { allowed: true };
    const range = parsed.range();
    if (range === 'unicast') return { allowed: true };
    for (const [base, bits] of this.#ranges) {
      if (base.kind() === parsed.kind() && parsed.match(base as never, bits)) return { allowed: true };
    }
    return { allowed: false, reason: `${parsed.toString()} is ${describeRange(range)}` };
  }
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique-local) address',
  linkLocal: 'a link-local address (where cloud metadata services live)',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  carrierGradeNat: 'a carrier-grade NAT address',
  reserved: 'a reserved address',
};

function describeRange(range: string): string {
  return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
}
