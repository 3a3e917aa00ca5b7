/**
 * Where a gateway keeps each person's sign-in to an `"auth": "oauth-per-user"`
 * upstream: in the shared store (Redis when the gateway has one, else
 * this process's memory), every value sealed with AES-256-GCM under
 * `CANDOR_TOKEN_KEY`. The additional authenticated data names the upstream and the
 * person, so a value copied under another person's key does not open: one person's
 * token is never read as another's, even by a mistake in the store.
 *
 * Three kinds of records, all sealed:
 * - the gateway's client registration at an upstream's authorization server (one per
 *   upstream, shared by everyone: registering once per person would leave hundreds of
 *   clients behind);
 * - one person's tokens for one upstream;
 * - a sign-in in flight (the PKCE verifier, who asked, for which upstream), taken once by
 *   the callback, whichever gateway instance the browser comes back to.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { CandorError } from '../../errors.js';
import type { RedisClient } from '../../stores/redis-connection.js';
import { canonicalResource, type StoredClient, type StoredSignIn, type StoredTokens } from './credentials-store.js';

/** What the OAuth provider needs from a place that keeps sign-ins (the credentials file is one). */
export interface SignInStore {
  withLock<T>(fn: () => Promise<T>): Promise<T>;
  get(resource: string): Promise<StoredSignIn | undefined>;
  update(
    resource: string,
    change: (entry: StoredSignIn) => StoredSignIn | undefined,
  ): Promise<StoredSignIn | undefined>;
}

/** A sign-in in flight: everything the callback needs to finish it. */
export interface PendingSignIn {
  server: string;
  principal: string;
  codeVerifier: string;
  /** The scope asked for (a token answer without `scope` was granted exactly that). */
  scope?: string;
  /** What discovery found (the SDK finishes a sign-in only against the same authorization server). */
  discovery?: OAuthDiscoveryState;
  createdAt: number;
}

/** The raw key-value store under the vault: strings in, strings out, with expiry and a lock. */
export interface VaultBackend {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Read and delete in one step (a sign-in's state is good once). */
  take(key: string): Promise<string | undefined>;
  /** Run `fn` holding `key`'s lock, across processes where the backend is shared. */
  withLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  close?(): Promise<void>;
}

const KEY_HELP =
  'Set CANDOR_TOKEN_KEY to 32 random bytes, base64 or hex (e.g. `openssl rand -base64 32`), the same on every gateway instance.';

/**
 * The 32-byte key from `CANDOR_TOKEN_KEY`: base64 or hex of 32 bytes, or a passphrase of
 * at least 32 characters (stretched with HKDF-SHA256). Anything shorter is refused.
 */
export function tokenKeyFrom(value: string | undefined): Buffer {
  if (value === undefined || value.trim() === '') {
    throw new CandorError(`"oauth-per-user" keeps each person's tokens encrypted, and no key is set. ${KEY_HELP}`, {
      code: 'invalid_gateway_config',
    });
  }
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length === 32) return bytes;
  }
  if (text.length >= 32) {
    return Buffer.from(hkdfSync('sha256', text, 'candor-token-vault', 'aes-256-gcm', 32));
  }
  throw new CandorError(`CANDOR_TOKEN_KEY is too short to be a key (${text.length} characters). ${KEY_HELP}`, {
    code: 'invalid_gateway_config',
  });
}

/** A short, stable, non-reversible name for a person or a resource inside store keys. */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}

/**
 * The vault.
 *
 * @example
 * ```ts
 * const vault = new TokenVault({ key: tokenKeyFrom(process.env.CANDOR_TOKEN_KEY), backend: memoryVaultBackend() });
 * const store = vault.forPrincipal('alice'); // a SignInStore for CandorOAuthProvider
 * ```
 */
export class TokenVault {
  readonly #key: Buffer;
  readonly #backend: VaultBackend;
  readonly #prefix: string;
  readonly #clientScope: string;

  /**
   * `clientScope` tells registrations apart: the gateway's callback URL, so instances behind
   * one public address share one client, and gateways at different addresses register their own.
   */
  constructor(options: { key: Buffer; backend: VaultBackend; prefix?: string; clientScope?: string }) {
    if (options.key.length !== 32) throw new TypeError('The token vault needs a 32-byte key.');
    this.#key = options.key;
    this.#backend = options.backend;
    this.#prefix = options.prefix ?? 'candor:oauth:';
    this.#clientScope = options.clientScope ?? '';
  }

  /** One person's sign-ins, as the OAuth provider reads and writes them. */
  forPrincipal(principal: string): SignInStore {
    const who = digest(principal);
    const vault = this;
    const keys = (resource: string) => {
      const where = digest(canonicalResource(resource));
      return {
        client: `${this.#prefix}client:${where}:${digest(this.#clientScope)}`,
        user: `${this.#prefix}user:${where}:${who}`,
        lock: `${this.#prefix}lock:${where}:${who}`,
        clientAad: `client|${canonicalResource(resource)}|${this.#clientScope}`,
        userAad: `user|${canonicalResource(resource)}|${principal}`,
      };
    };
    const read = async (resource: string): Promise<StoredSignIn | undefined> => {
      const k = keys(resource);
      const [shared, own] = await Promise.all([
        vault.#open<{ issuer?: string; client: StoredClient }>(k.client, k.clientAad),
        vault.#open<{ issuer?: string; tokens: StoredTokens; savedAt?: string }>(k.user, k.userAad),
      ]);
      if (!shared && !own) return undefined;
      const issuer = own?.issuer ?? shared?.issuer;
      const entry: StoredSignIn = { resource: canonicalResource(resource) };
      if (issuer !== undefined) entry.issuer = issuer;
      // A registration made under another issuer is not this sign-in's client.
      if (shared && (own?.issuer === undefined || shared.issuer === own.issuer)) entry.client = shared.client;
      if (own) {
        entry.tokens = own.tokens;
        if (own.savedAt !== undefined) entry.savedAt = own.savedAt;
      }
      return entry;
    };
    return {
      withLock: <T>(fn: () => Promise<T>) => this.#backend.withLock(`${this.#prefix}lock:${who}`, fn),
      get: read,
      async update(resource, change) {
        const k = keys(resource);
        return vault.#backend.withLock(k.lock, async () => {
          const before = (await read(resource)) ?? { resource: canonicalResource(resource) };
          const next = change(before);
          if (next?.client !== before.client) {
            if (next?.client === undefined) await vault.#backend.delete(k.client);
            else
              await vault.#seal(
                k.client,
                k.clientAad,
                next.issuer === undefined ? { client: next.client } : { issuer: next.issuer, client: next.client },
              );
          }
          if (next?.tokens === undefined) await vault.#backend.delete(k.user);
          else
            await vault.#seal(k.user, k.userAad, {
              ...(next.issuer === undefined ? {} : { issuer: next.issuer }),
              tokens: next.tokens,
              ...(next.savedAt === undefined ? {} : { savedAt: next.savedAt }),
            });
          return next;
        });
      },
    };
  }

  /** Keep a sign-in in flight under a fresh `state`; returns the state. Good for `ttlMs` (default 10 minutes). */
  async savePending(pending: Omit<PendingSignIn, 'createdAt'>, ttlMs = 10 * 60_000): Promise<string> {
    const state = randomBytes(32).toString('base64url');
    await this.#seal(
      `${this.#prefix}pending:${digest(state)}`,
      `pending|${state}`,
      { ...pending, createdAt: Date.now() },
      ttlMs,
    );
    return state;
  }

  /** The sign-in a callback's `state` belongs to, once; undefined when unknown, used or expired. */
  async takePending(state: string): Promise<PendingSignIn | undefined> {
    const sealed = await this.#backend.take(`${this.#prefix}pending:${digest(state)}`);
    return sealed === undefined ? undefined : this.#decrypt<PendingSignIn>(sealed, `pending|${state}`);
  }

  /** Remember that a person's sign-in to `server` failed (the waiting call stops waiting). */
  async saveFailure(server: string, principal: string, message: string): Promise<void> {
    await this.#seal(this.#failureKey(server, principal), `failure|${server}|${principal}`, { message }, 10 * 60_000);
  }

  /** The failure saved for a person's sign-in to `server`, once. */
  async takeFailure(server: string, principal: string): Promise<string | undefined> {
    const sealed = await this.#backend.take(this.#failureKey(server, principal));
    return sealed === undefined
      ? undefined
      : this.#decrypt<{ message: string }>(sealed, `failure|${server}|${principal}`)?.message;
  }

  async close(): Promise<void> {
    await this.#backend.close?.();
  }

  #failureKey(server: string, principal: string): string {
    return `${this.#prefix}failure:${digest(server)}:${digest(principal)}`;
  }

  async #seal(key: string, aad: string, value: unknown, ttlMs?: number): Promise<void> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    const sealed = `v1.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
    await this.#backend.set(key, sealed, ttlMs);
  }

  async #open<T>(key: string, aad: string): Promise<T | undefined> {
    const sealed = await this.#backend.get(key);
    return sealed === undefined ? undefined : this.#decrypt<T>(sealed, aad);
  }

  /** Undefined when the value does not open (another key, or not this record): treated as absent. */
  #decrypt<T>(sealed: string, aad: string): T | undefined {
    if (!sealed.startsWith('v1.')) return undefined;
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    if (raw.length < 12 + 16) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      const text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString(
        'utf8',
      );
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }
}

/** The vault's store in this process's memory (one gateway instance). */
export function memoryVaultBackend(): VaultBackend {
  const values = new Map<string, { value: string; expires: number }>();
  const locks = new Map<string, Promise<unknown>>();
  const live = (key: string) => {
    const found = values.get(key);
    if (found && found.expires <= Date.now()) values.delete(key);
    return values.get(key)?.value;
  };
  return {
    get: async (key) => live(key),
    set: async (key, value, ttlMs) => {
      values.set(key, { value, expires: ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs });
    },
    delete: async (key) => {
      values.delete(key);
    },
    take: async (key) => {
      const value = live(key);
      values.delete(key);
      return value;
    },
    withLock: async (key, fn) => {
      const before = locks.get(key) ?? Promise.resolve();
      const run = before.then(fn, fn);
      const settled = run.catch(() => {});
      locks.set(key, settled);
      try {
        return await run;
      } finally {
        if (locks.get(key) === settled) locks.delete(key);
      }
    },
  };
}

const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * The vault's store on Redis, shared by every gateway instance: values with `PX`
 * expiry, `GETDEL` for taking a sign-in's state once, and a lock (`SET NX PX`, released
 * only by its holder) so two instances never spend one refresh token twice.
 */
export function redisVaultBackend(redis: () => Promise<RedisClient>): VaultBackend {
  return {
    get: async (key) => (await (await redis()).get(key)) ?? undefined,
    set: async (key, value, ttlMs) => {
      const client = await redis();
      if (ttlMs === undefined) await client.set(key, value);
      else await client.set(key, value, 'PX', Math.max(1, Math.round(ttlMs)));
    },
    delete: async (key) => {
      await (await redis()).del(key);
    },
    take: async (key) => (await (await redis()).getdel(key)) ?? undefined,
    withLock: async (key, fn) => {
      const client = await redis();
      const token = randomUUID();
      const deadline = Date.now() + 15_000;
      while ((await client.set(key, token, 'PX', 30_000, 'NX')) !== 'OK') {
        if (Date.now() > deadline) {
          throw new CandorError(`Timed out waiting for the shared sign-in lock ${key}.`, { code: 'store_unavailable' });
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      try {
        return await fn();
      } finally {
        await client.eval(RELEASE, 1, key, token).catch(() => {});
      }
    },
  };
}
