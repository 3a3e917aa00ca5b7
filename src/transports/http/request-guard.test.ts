import { describe, expect, test } from 'vitest';
import { hostnameOf, isLoopbackAddress, RequestGuard } from './request-guard.js';

describe('isLoopbackAddress and hostnameOf', () => {
  test('loopback addresses in every spelling are recognised, others are not', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) {
      expect(isLoopbackAddress(a), a).toBe(true);
    }
    for (const a of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', 'example.com']) {
      expect(isLoopbackAddress(a), a).toBe(false);
    }
  });

  test('hostnameOf drops the port and keeps IPv6 brackets', () => {
    expect(hostnameOf('LocalHost:3000')).toBe('localhost');
    expect(hostnameOf('[::1]:8080')).toBe('[::1]');
    expect(hostnameOf('example.com')).toBe('example.com');
  });
});

describe('RequestGuard', () => {
  test('bound to loopback: only localhost Host names and localhost origins pass', () => {
    const guard = new RequestGuard({ host: '127.0.0.1' });
    expect(guard.check(undefined, 'localhost:3000')).toBeUndefined();
    expect(guard.check('http://127.0.0.1:5173', '127.0.0.1:3000')).toBeUndefined();
    expect(guard.check('https://[::1]', '[::1]:3000')).toBeUndefined();
    expect(guard.check(undefined, 'evil.example')).toMatch(/Host header "evil.example"/);
    expect(guard.check(undefined, undefined)).toMatch(/Host header \(missing\)/);
    expect(guard.check('https://evil.example', 'localhost:3000')).toMatch(/Origin "https:\/\/evil.example"/);
    // Look-alikes are not localhost.
    expect(guard.check('http://localhost.evil.example', 'localhost')).toBeDefined();
    expect(guard.check('http://user@evil.example', 'localhost')).toBeDefined();
    expect(guard.check('null', 'localhost')).toBeDefined();
  });

  test('bound elsewhere: any Host, and only the same origin', () => {
    const guard = new RequestGuard({ host: '0.0.0.0' });
    expect(guard.check(undefined, 'mcp.example.com')).toBeUndefined();
    expect(guard.check('https://mcp.example.com', 'mcp.example.com')).toBeUndefined();
    expect(guard.check('https://evil.example', 'mcp.example.com')).toMatch(/not this server's origin/);
  });

  test('without a bound host, the local address of the connection decides', () => {
    const guard = new RequestGuard();
    expect(guard.check(undefined, 'evil.example', { localAddress: '127.0.0.1' })).toBeDefined();
    expect(guard.check(undefined, 'evil.example', { localAddress: '::ffff:127.0.0.1' })).toBeDefined();
    expect(guard.check(undefined, 'mcp.example.com', { localAddress: '10.1.2.3' })).toBeUndefined();
    // Unknown (fetch handlers): the safe default, loopback rules.
    expect(guard.check(undefined, 'evil.example')).toBeDefined();
  });

  test('allowedOrigins and allowedHosts replace the defaults; "*" allows any origin', () => {
    const lists = new RequestGuard({
      host: '127.0.0.1',
      allowedOrigins: ['https://app.example.com/'],
      allowedHosts: ['mcp.example.com', 'localhost:3000'],
    });
    expect(lists.check('https://APP.example.com', 'mcp.example.com:443')).toBeUndefined();
    expect(lists.check(undefined, 'localhost:3000')).toBeUndefined();
    expect(lists.check(undefined, 'localhost:4000')).toMatch(/allowed hosts/);
    expect(lists.check('http://localhost:3000', 'localhost:3000')).toMatch(/allowed origins/);
    const any = new RequestGuard({ host: '127.0.0.1', allowedOrigins: ['*'] });
    expect(any.check('https://anything.example', 'localhost')).toBeUndefined();
  });

  test('echoed header values are printable and short', () => {
    const guard = new RequestGuard({ host: '127.0.0.1' });
    const message = guard.check(`https://${'a'.repeat(300)}\u0007.example`, 'localhost')!;
    expect(message.length).toBeLessThan(300);
    expect([...message].every((c) => (c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) < 0x7f) || c === '…')).toBe(true);
  });
});
