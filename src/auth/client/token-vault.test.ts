import { randomBytes } from 'node:crypto';
import { describe, expect, test, vi } from 'vitest';
import { memoryVaultBackend, TokenVault, tokenKeyFrom, type VaultBackend } from './token-vault.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const ALICE = 'access-token-of-alice-7f3a9c';
const BOB = 'access-token-of-bob-2d81e4';
const tokens = (access: string) => ({ access_token: access, token_type: 'Bearer', refresh_token: `${access}-refresh` });

/** A backend that keeps what it was given, to look at and tamper with. */
function visibleBackend(): VaultBackend & { values: Map<string, string> } {
  const inner = memoryVaultBackend();
  const values = new Map<string, string>();
  return {
    values,
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
    delete: async (key) => {
      values.delete(key);
    },
    take: async (key) => {
      const value = values.get(key);
      values.delete(key);
      return value;
    },
    withLock: inner.withLock,
  };
}

describe('TokenVault', () => {
  test("keeps each person's tokens apart, sealed; a record moved under another person does not open", async () => {
    const backend = visibleBackend();
    const vault = new TokenVault({ key: randomBytes(32), backend });
    await vault
      .forPrincipal('principal-alice')
      .update(RESOURCE, (e) => ({ ...e, issuer: 'https://as', tokens: tokens(ALICE) }));
    await vault
      .forPrincipal('principal-bob')
      .update(RESOURCE, (e) => ({ ...e, issuer: 'https://as', tokens: tokens(BOB) }));
    expect((await vault.forPrincipal('principal-alice').get(RESOURCE))?.tokens?.access_token).toBe(ALICE);
    expect((await vault.forPrincipal('principal-bob').get(RESOURCE))?.tokens?.access_token).toBe(BOB);
    expect(await vault.forPrincipal('carol').get(RESOURCE)).toBeUndefined();
    for (const value of backend.values.values()) {
      expect(value).toMatch(/^v1\./);
      // Long marker strings: short ones turn up in random ciphertext by chance.
      for (const secret of [ALICE, BOB, 'principal-alice', 'principal-bob']) expect(value).not.toContain(secret);
    }
    // Copy alice's sealed record over bob's key: it must not open as bob's.
    const userKeys = [...backend.values.keys()].filter((k) => k.includes(':user:'));
    expect(userKeys).toHaveLength(2);
    const [first, second] = userKeys as [string, string];
    backend.values.set(second, backend.values.get(first)!);
    const alice = await vault.forPrincipal('principal-alice').get(RESOURCE);
    const bob = await vault.forPrincipal('principal-bob').get(RESOURCE);
    expect([alice?.tokens?.access_token, bob?.tokens?.access_token].filter(Boolean)).toHaveLength(1);
  });

  test('a vault with another key reads nothing (treated as signed out), and a flipped byte does not open', async () => {
    const backend = visibleBackend();
    await new TokenVault({ key: randomBytes(32), backend })
      .forPrincipal('principal-alice')
      .update(RESOURCE, (e) => ({ ...e, tokens: tokens('A1') }));
    expect(
      await new TokenVault({ key: randomBytes(32), backend }).forPrincipal('principal-alice').get(RESOURCE),
    ).toBeUndefined();
    const key = randomBytes(32);
    const vault = new TokenVault({ key, backend });
    await vault.forPrincipal('dan').update(RESOURCE, (e) => ({ ...e, tokens: tokens('D1') }));
    const userKey = [...backend.values.keys()].find((k) => k.includes(':user:') && backend.values.get(k))!;
    for (const k of [...backend.values.keys()].filter((k) => k.includes(':user:'))) {
      const sealed = backend.values.get(k)!;
      const bytes = Buffer.from(sealed.slice(3), 'base64url');
      bytes[bytes.length - 20]! ^= 1;
      backend.values.set(k, `v1.${bytes.toString('base64url')}`);
    }
    expect(userKey).toBeDefined();
    expect(await vault.forPrincipal('dan').get(RESOURCE)).toBeUndefined();
  });

  test('the client registration is shared by everyone at one callback, and separate for another', async () => {
    const backend = visibleBackend();
    const key = randomBytes(32);
    const here = new TokenVault({ key, backend, clientScope: 'https://gw.example.com/oauth/upstream/callback' });
    await here
      .forPrincipal('principal-alice')
      .update(RESOURCE, (e) => ({ ...e, issuer: 'https://as', client: { client_id: 'c1' } }));
    expect((await here.forPrincipal('principal-bob').get(RESOURCE))?.client?.client_id).toBe('c1');
    const elsewhere = new TokenVault({
      key,
      backend,
      clientScope: 'https://other.example.com/oauth/upstream/callback',
    });
    expect((await elsewhere.forPrincipal('principal-bob').get(RESOURCE))?.client).toBeUndefined();
    // Dropping one person's tokens (a refused refresh) keeps the shared client…
    await here.forPrincipal('principal-alice').update(RESOURCE, (e) => ({ ...e, tokens: tokens('A1') }));
    await here.forPrincipal('principal-alice').update(RESOURCE, ({ tokens: _dropped, ...rest }) => rest);
    expect((await here.forPrincipal('principal-alice').get(RESOURCE))?.tokens).toBeUndefined();
    expect((await here.forPrincipal('principal-bob').get(RESOURCE))?.client?.client_id).toBe('c1');
    // …and dropping everything (the SDK's answer to invalid_client) drops the registration too.
    await here.forPrincipal('principal-alice').update(RESOURCE, () => undefined);
    expect((await here.forPrincipal('principal-bob').get(RESOURCE))?.client).toBeUndefined();
  });

  test('a sign-in in flight is taken once, by its state only, and expires', async () => {
    const vault = new TokenVault({ key: randomBytes(32), backend: memoryVaultBackend() });
    const state = await vault.savePending({ server: 'notes', principal: 'alice', codeVerifier: 'v' });
    expect(await vault.takePending('not-the-state')).toBeUndefined();
    expect((await vault.takePending(state))?.principal).toBe('alice');
    expect(await vault.takePending(state)).toBeUndefined();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const short = await vault.savePending({ server: 'notes', principal: 'bob', codeVerifier: 'v' }, 1_000);
      vi.advanceTimersByTime(999);
      const kept = await vault.savePending({ server: 'notes', principal: 'carol', codeVerifier: 'v' }, 1_000);
      vi.advanceTimersByTime(1);
      expect(await vault.takePending(short)).toBeUndefined();
      expect((await vault.takePending(kept))?.principal).toBe('carol');
    } finally {
      vi.useRealTimers();
    }
  });

  test('updates of one person are serialised: concurrent writes lose nothing', async () => {
    const vault = new TokenVault({ key: randomBytes(32), backend: memoryVaultBackend() });
    const store = vault.forPrincipal('principal-alice');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update(RESOURCE, (e) => ({
          ...e,
          tokens: { access_token: `${e.tokens?.access_token ?? ''}${i},`, token_type: 'Bearer' },
        })),
      ),
    );
    const written = (await store.get(RESOURCE))?.tokens?.access_token.split(',').filter(Boolean) ?? [];
    expect(written.sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  });
});

describe('tokenKeyFrom', () => {
  test('takes 32 bytes as base64 or hex, stretches a long passphrase, refuses short or missing keys', () => {
    const raw = randomBytes(32);
    expect(tokenKeyFrom(raw.toString('base64')).equals(raw)).toBe(true);
    expect(tokenKeyFrom(raw.toString('hex')).equals(raw)).toBe(true);
    expect(tokenKeyFrom('correct horse battery staple and then some more')).toHaveLength(32);
    expect(() => tokenKeyFrom(undefined)).toThrow(/CANDOR_TOKEN_KEY/);
    expect(() => tokenKeyFrom('  ')).toThrow(/CANDOR_TOKEN_KEY/);
    expect(() => tokenKeyFrom('short')).toThrow(/too short/);
  });
});
