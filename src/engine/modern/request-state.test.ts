import { describe, expect, test } from 'vitest';
import { canonicalJson, digestOf, RequestStateSealer, type StatePayload } from './request-state.js';

const SECRET = 'a-test-secret-with-enough-bytes-123';

async function issued(sealer: RequestStateSealer, overrides: Partial<StatePayload> = {}) {
  const h = await digestOf({ path: 'a.txt' });
  const payload: StatePayload = {
    v: 1,
    m: 'tools/call',
    n: 'delete_file',
    h,
    x: Date.now() + 60_000,
    a: {},
    q: ['elicit-0'],
    ...overrides,
  };
  return {
    state: await sealer.seal(payload),
    binding: { method: 'tools/call', name: 'delete_file', argsDigest: h, principal: undefined },
  };
}

describe('requestState sealing', () => {
  test('a sealed state opens with the same binding and gives back its payload', async () => {
    const sealer = new RequestStateSealer({ secret: SECRET });
    const { state, binding } = await issued(sealer, { a: { 'elicit-0': { action: 'accept' } } });
    const opened = await sealer.open(state, binding);
    expect(opened.ok).toBe(true);
    if (opened.ok) expect(opened.payload.a).toEqual({ 'elicit-0': { action: 'accept' } });
  });

  test('a state whose payload was altered fails the integrity check', async () => {
    const sealer = new RequestStateSealer({ secret: SECRET });
    const { state, binding } = await issued(sealer);
    const [v, body, mac] = state.split('.');
    const json = JSON.parse(atob(body!.replace(/-/g, '+').replace(/_/g, '/')));
    json.a = { 'elicit-0': { action: 'accept', content: { confirm: true } } };
    const forged = btoa(JSON.stringify(json)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const opened = await sealer.open(`${v}.${forged}.${mac}`, binding);
    expect(opened).toEqual({ ok: false, reason: expect.stringContaining('integrity check') });
  });

  test('a state signed with another secret is refused, and garbage is refused as malformed', async () => {
    const { state, binding } = await issued(new RequestStateSealer({ secret: 'another-secret-of-enough-length' }));
    const sealer = new RequestStateSealer({ secret: SECRET });
    expect(await sealer.open(state, binding)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('integrity'),
    });
    expect(await sealer.open('hello', binding)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('malformed'),
    });
    expect(await sealer.open(42, binding)).toMatchObject({ ok: false });
  });

  test('an expired state is refused with its expiry time', async () => {
    const sealer = new RequestStateSealer({ secret: SECRET });
    const { state, binding } = await issued(sealer, { x: Date.now() - 1 });
    expect(await sealer.open(state, binding)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('expired at'),
    });
  });

  test('a state replayed into another tool, other arguments or another principal is refused', async () => {
    const sealer = new RequestStateSealer({ secret: SECRET });
    const { state, binding } = await issued(sealer);
    expect(await sealer.open(state, { ...binding, name: 'read_file' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"delete_file", not tools/call "read_file"'),
    });
    expect(await sealer.open(state, { ...binding, argsDigest: await digestOf({ path: 'b.txt' }) })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('different arguments'),
    });
    expect(await sealer.open(state, { ...binding, principal: 'mallory' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('another principal'),
    });
  });

  test('with rotated secrets the old one still verifies and the new one signs', async () => {
    const old = new RequestStateSealer({ secret: SECRET });
    const { state, binding } = await issued(old);
    const rotated = new RequestStateSealer({ secret: ['the-new-secret-with-enough-bytes', SECRET] });
    expect((await rotated.open(state, binding)).ok).toBe(true);
    const fresh = await issued(rotated);
    expect((await old.open(fresh.state, fresh.binding)).ok).toBe(false);
  });

  test('a short secret is refused at construction', () => {
    expect(() => new RequestStateSealer({ secret: 'short' })).toThrow(/at least 16 bytes/);
  });

  test('the argument digest ignores key order', async () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
    expect(await digestOf({ b: 1, a: 2 })).toBe(await digestOf({ a: 2, b: 1 }));
  });
});
