import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_TOKEN_LENGTH, parseBearer } from './bearer.js';
import { bearerChallenge } from './challenge.js';

describe('parseBearer', () => {
  test('reads a bearer token, the scheme in any case', () => {
    expect(parseBearer('Bearer abc.def-ghi_~+/==')).toEqual({ kind: 'token', token: 'abc.def-ghi_~+/==' });
    expect(parseBearer('bearer abc')).toEqual({ kind: 'token', token: 'abc' });
    expect(parseBearer('BEARER  abc')).toEqual({ kind: 'token', token: 'abc' });
  });

  test('tells a missing header from another scheme from a malformed bearer', () => {
    expect(parseBearer(undefined).kind).toBe('missing');
    expect(parseBearer('   ').kind).toBe('missing');
    expect(parseBearer('Basic dXNlcjpwYXNz').kind).toBe('other-scheme');
    expect(parseBearer('Bearerabc').kind).toBe('other-scheme');
    expect(parseBearer('Bearer').kind).toBe('malformed');
    expect(parseBearer('Bearer a b').kind).toBe('malformed');
    expect(parseBearer('Bearer a, Bearer b').kind).toBe('malformed');
    expect(parseBearer('Bearer a"b').kind).toBe('malformed');
    expect(parseBearer('Bearer =abc').kind).toBe('malformed');
    expect(parseBearer(`Bearer ${'a'.repeat(MAX_TOKEN_LENGTH + 1)}`).kind).toBe('malformed');
  });

  test('never throws, and a token it returns is one b64token of bounded length (fuzz)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `Bearer ${s}`),
          fc.string({ unit: 'binary' }),
        ),
        (header) => {
          const parsed = parseBearer(header);
          if (parsed.kind === 'token') {
            expect(parsed.token).toMatch(/^[A-Za-z0-9\-._~+/]+=*$/);
            expect(parsed.token.length).toBeLessThanOrEqual(MAX_TOKEN_LENGTH);
            expect(header.includes(parsed.token)).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('round-trips every valid token (fuzz)', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,200}=*$/);
    fc.assert(
      fc.property(token, fc.constantFrom('Bearer', 'bearer', 'BeArEr'), (t, scheme) => {
        expect(parseBearer(`${scheme} ${t}`)).toEqual({ kind: 'token', token: t });
      }),
    );
  });
});

describe('bearerChallenge', () => {
  test('names the metadata and the scope, with error fields when given', () => {
    expect(
      bearerChallenge({ resourceMetadata: 'https://x/.well-known/oauth-protected-resource/mcp', scope: ['a', 'b'] }),
    ).toBe('Bearer scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"');
    expect(
      bearerChallenge({
        resourceMetadata: 'https://x/m',
        error: 'insufficient_scope',
        description: 'needs "b"\n',
        scope: ['b'],
      }),
    ).toBe(
      'Bearer error="insufficient_scope", error_description="needs ?b??", scope="b", resource_metadata="https://x/m"',
    );
  });
});
