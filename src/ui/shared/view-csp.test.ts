import { describe, expect, it } from 'vitest';
import { viewCsp } from './view-csp.js';

describe('viewCsp', () => {
  it('gives the spec defaults when the resource declares nothing: no network at all', () => {
    const { policy, dropped } = viewCsp(undefined);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(dropped).toEqual([]);
  });

  it('adds declared origins to the directives they belong to, and nothing else', () => {
    const { policy } = viewCsp({
      connectDomains: ['https://api.example.com', 'wss://live.example.com'],
      resourceDomains: ['https://*.cdn.example.com'],
    });
    expect(policy).toContain('connect-src https://api.example.com wss://live.example.com');
    expect(policy).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example.com");
    expect(policy).toContain("frame-src 'none'");
  });

  it('drops entries that could inject directives or keywords', () => {
    const { policy, dropped } = viewCsp({
      connectDomains: ["https://a.example.com; script-src 'unsafe-eval'", "'unsafe-eval'", '*', 'javascript:x', 42],
    });
    expect(policy).toContain("connect-src 'none'");
    expect(policy).not.toContain('unsafe-eval');
    expect(dropped).toHaveLength(5);
  });
});
