import { describe, expect, test } from 'vitest';
import { gatewayElicitationId, openableUrl } from './upstream-requests.js';

describe("which of an upstream's URLs a person is shown", () => {
  test('https anywhere and http to a loopback host are passed on, normalised', () => {
    expect(openableUrl('https://example.com/sign-in?state=1')).toBe('https://example.com/sign-in?state=1');
    expect(openableUrl('http://127.0.0.1:8080/callback')).toBe('http://127.0.0.1:8080/callback');
    expect(openableUrl('http://localhost/x')).toBe('http://localhost/x');
    expect(openableUrl('http://[::1]:3000/')).toBe('http://[::1]:3000/');
  });

  test('other schemes, plain http to the network, credentials in the URL and non-URLs are refused', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'file:///etc/passwd',
      'http://example.com/sign-in',
      'http://10.0.0.5/',
      'https://user:secret@example.com/',
      'not a url',
      '/relative/path',
      42,
      undefined,
    ]) {
      expect(openableUrl(bad), String(bad)).toBeUndefined();
    }
  });

  test("an elicitation id is made unique across the gateway's servers", () => {
    expect(gatewayElicitationId('github', 'abc')).toBe('github:abc');
    expect(gatewayElicitationId('github', 'abc')).not.toBe(gatewayElicitationId('gitlab', 'abc'));
  });
});
