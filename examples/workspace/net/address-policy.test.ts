import { describe, expect, it } from 'vitest';
import { AddressPolicy, addressRange } from './address-policy.js';

// Pure decisions: no packet is sent to any of these addresses.
describe('AddressPolicy by default', () => {
  const policy = new AddressPolicy();
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['::1', /loopback/],
    ['::ffff:127.0.0.1', /loopback/],
    ['::ffff:7f00:1', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['192.168.1.1', /private/],
    ['fd00:ec2::254', /unique-local/],
    ['169.254.169.254', /link-local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['0.0.0.0', /unspecified/],
    ['::', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['ff02::1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['64:ff9b::7f00:1', /rfc6052/],
    ['2002:7f00:1::', /6to4/],
  ];
  for (const [address, reason] of refused) {
    it(`refuses ${address}`, () => {
      const verdict = policy.check(address);
      expect(verdict.allowed).toBe(false);
      if (!verdict.allowed) expect(verdict.reason).toMatch(reason);
    });
  }

  it('allows public unicast addresses', () => {
    expect(policy.check('93.184.215.14')).toEqual({ allowed: true });
    expect(policy.check('2606:4700::6810:85e5')).toEqual({ allowed: true });
  });

  it('refuses text that is not an address', () => {
    expect(policy.check('localhost').allowed).toBe(false);
  });

  it('trusts no host by name', () => {
    expect(policy.hostAllowed('localhost')).toBe(false);
    expect(policy.hostAllowed('127.0.0.1')).toBe(false);
  });
});

describe('AddressPolicy with operator settings', () => {
  it('allows every address with allowPrivateNetwork', () => {
    const policy = new AddressPolicy({ allowPrivateNetwork: true });
    expect(policy.check('127.0.0.1').allowed).toBe(true);
    expect(policy.check('169.254.169.254').allowed).toBe(true);
  });

  it('trusts hosts named in allowedHosts, exactly or by wildcard, case-insensitively', () => {
    const policy = new AddressPolicy({ allowedHosts: ['LocalHost', '*.corp.example'] });
    expect(policy.hostAllowed('localhost')).toBe(true);
    expect(policy.hostAllowed('localhost.')).toBe(true);
    expect(policy.hostAllowed('wiki.corp.example')).toBe(true);
    expect(policy.hostAllowed('corp.example')).toBe(false);
    expect(policy.hostAllowed('evilcorp.example')).toBe(false);
    expect(policy.hostAllowed('127.0.0.1')).toBe(false);
  });

  it('trusts IP literals in allowedHosts in any spelling', () => {
    const policy = new AddressPolicy({ allowedHosts: ['::1', '127.0.0.1'] });
    expect(policy.hostAllowed('[::1]')).toBe(true);
    expect(policy.hostAllowed('0:0:0:0:0:0:0:1')).toBe(true);
    expect(policy.hostAllowed('::ffff:127.0.0.1')).toBe(true);
    expect(policy.hostAllowed('127.0.0.2')).toBe(false);
  });

  it('allows resolved addresses inside CIDR ranges in allowedHosts', () => {
    const policy = new AddressPolicy({ allowedHosts: ['10.0.0.0/8'] });
    expect(policy.check('10.9.8.7').allowed).toBe(true);
    expect(policy.check('::ffff:10.9.8.7').allowed).toBe(true);
    expect(policy.check('192.168.0.1').allowed).toBe(false);
    expect(policy.check('127.0.0.1').allowed).toBe(false);
  });

  it('rejects a malformed CIDR entry at construction', () => {
    expect(() => new AddressPolicy({ allowedHosts: ['10.0.0.0/99'] })).toThrow(/not a valid CIDR/);
  });
});

describe('addressRange', () => {
  it('names the range of IPv4-mapped IPv6 addresses by the IPv4 address they carry', () => {
    expect(addressRange('::ffff:169.254.169.254')).toBe('linkLocal');
    expect(addressRange('8.8.8.8')).toBe('unicast');
    expect(addressRange('nonsense')).toBe('invalid');
  });
});
