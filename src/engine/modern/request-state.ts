/**
 * `requestState` of multi round-trip requests (basic/patterns/mrtr): the
 * opaque string the client echoes when it retries a call with its
 * `inputResponses`. It is attacker-controlled input, so candor seals it:
 *
 *   v1.<base64url(JSON payload)>.<base64url(HMAC-SHA256(secret, "v1." + payload))>
 *
 * The payload binds the state to the method, the tool name, a SHA-256 digest
 * of the canonical arguments and the authenticated principal (the spec's
 * replay SHOULDs), and carries an expiry. A tampered, expired or
 * replayed-elsewhere state is refused with a message saying which, before any
 * handler runs.
 *
 * Secrets: random per process by default, which is right for one process.
 * Behind a load balancer every instance must share one secret (for example
 * from an environment variable): a retry may land on another instance. To
 * rotate, pass `[newSecret, oldSecret]`: the first signs, all verify.
 *
 * Web Crypto only, so the engine runs outside Node too.
 */

/** Options of {@link RequestStateSealer} (part of the server's `requestState` option). */
export interface RequestStateOptions {
  /**
   * HMAC key(s), at least 32 bytes of entropy each. A string is used as UTF-8.
   * With several, the first signs and all verify (rotation). Default: 32
   * random bytes per process. May be a promise (a secret fetched at start-up,
   * e.g. the one instances of a cluster share through Redis).
   */
  secret?: SecretInput | Promise<SecretInput>;
  /** How long a state stays valid. Default 10 minutes (a person may take a while to answer). */
  ttlMs?: number;
}

/** One secret, or several (the first signs, all verify). */
export type SecretInput = string | Uint8Array | ReadonlyArray<string | Uint8Array>;

/** What a sealed state says. Short keys keep the header-free string small. */
export interface StatePayload {
  /** Format version. */
  v: 1;
  /** The request method, e.g. `tools/call`. */
  m: string;
  /** The tool (or prompt) name. */
  n: string;
  /** Digest of the canonical arguments. */
  h: string;
  /** The principal the state was issued to, if the request was authenticated. */
  p?: string;
  /** Expiry, epoch milliseconds. */
  x: number;
  /** Answers gathered in earlier rounds, by input key. */
  a: { [key: string]: unknown };
  /** Keys asked in the round that issued this state. */
  q: string[];
  /**
   * What each key of `q` asked, when the handler named the key itself
   * (`ctx.elicit(params, { key })`): `elicitation/create`, `sampling/createMessage`
   * or `roots/list`. Numbered keys (`elicit-0`) say it in their prefix.
   */
  k?: { [key: string]: InputMethod };
}

/** The methods a 2026-07-28 server may embed in `inputRequests`. */
export type InputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** What the state must match on the retry. */
export interface StateBinding {
  method: string;
  name: string;
  argsDigest: string;
  principal: string | undefined;
}

export type OpenedState = { ok: true; payload: StatePayload } | { ok: false; reason: string };

const MAX_STATE_LENGTH = 256 * 1024;
const encoder = new TextEncoder();

/**
 * Seals and opens `requestState` strings.
 *
 * @example
 * ```ts
 * const sealer = new RequestStateSealer({ secret: process.env.MCP_STATE_SECRET });
 * const state = await sealer.seal({ v: 1, m: 'tools/call', n: 'delete_file', h, x: Date.now() + 60_000, a: {}, q: ['elicit-0'] });
 * const opened = await sealer.open(state, { method: 'tools/call', name: 'delete_file', argsDigest: h, principal: undefined });
 * ```
 */
export class RequestStateSealer {
  readonly ttlMs: number;
  #keys: Promise<CryptoKey[]> | undefined;

  constructor(options: RequestStateOptions = {}) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    const { secret } = options;
    // No secret: a random one, made on first use (workerd allows no random values in a Worker's global scope).
    if (secret === undefined) return;
    // A secret given now is checked now (a short one throws here); a promised one on first use.
    const keys = secret instanceof Promise ? secret.then(importKeys) : importKeys(secret);
    keys.catch(() => {}); // surfaced on first use, never as an unhandled rejection
    this.#keys = keys;
  }

  #keysNow(): Promise<CryptoKey[]> {
    this.#keys ??= importKeys(undefined);
    return this.#keys;
  }

  /** The expiry for a state issued now. */
  expiry(now = Date.now()): number {
    return now + this.ttlMs;
  }

  async seal(payload: StatePayload): Promise<string> {
    const body = `v1.${base64url(encoder.encode(JSON.stringify(payload)))}`;
    const [key] = await this.#keysNow();
    const mac = await crypto.subtle.sign('HMAC', key!, encoder.encode(body));
    return `${body}.${base64url(new Uint8Array(mac))}`;
  }

  /** Verify a state and check it against what this retry asks for. */
  async open(state: unknown, binding: StateBinding, now = Date.now()): Promise<OpenedState> {
    if (typeof state !== 'string' || state.length > MAX_STATE_LENGTH) {
      return { ok: false, reason: 'requestState is not one this server issued (not a string of the expected size).' };
    }
    const parts = state.split('.');
    if (parts.length !== 3 || parts[0] !== 'v1')
      return { ok: false, reason: 'requestState is not one this server issued (malformed).' };
    const mac = fromBase64url(parts[2]!);
    if (mac === undefined) return { ok: false, reason: 'requestState is not one this server issued (malformed).' };
    const signed = encoder.encode(`v1.${parts[1]}`);
    let verified = false;
    for (const key of await this.#keysNow()) {
      // crypto.subtle.verify compares in constant time.
      if (await crypto.subtle.verify('HMAC', key, mac as Uint8Array<ArrayBuffer>, signed)) {
        verified = true;
        break;
      }
    }
    if (!verified) {
      return {
        ok: false,
        reason: 'requestState failed its integrity check: it was altered, or issued by a server with another secret.',
      };
    }
    let payload: StatePayload;
    try {
      payload = JSON.parse(new TextDecoder().decode(fromBase64url(parts[1]!))) as StatePayload;
    } catch {
      return { ok: false, reason: 'requestState is not one this server issued (malformed).' };
    }
    if (
      payload.v !== 1 ||
      typeof payload.x !== 'number' ||
      typeof payload.a !== 'object' ||
      !Array.isArray(payload.q)
    ) {
      return { ok: false, reason: 'requestState is not one this server issued (unknown format).' };
    }
    if (now >= payload.x) {
      return {
        ok: false,
        reason: `requestState expired at ${new Date(payload.x).toISOString()}; call again without requestState and inputResponses to start over.`,
      };
    }
    if (payload.m !== binding.method || payload.n !== binding.name) {
      return {
        ok: false,
        reason: `requestState was issued for ${payload.m} "${payload.n}", not ${binding.method} "${binding.name}"; it cannot be reused for another request.`,
      };
    }
    if (payload.h !== binding.argsDigest) {
      return {
        ok: false,
        reason:
          'requestState was issued for different arguments; retry with exactly the arguments of the original call.',
      };
    }
    if (payload.p !== binding.principal) {
      return {
        ok: false,
        reason: 'requestState was issued to another principal; it cannot be used with these credentials.',
      };
    }
    return { ok: true, payload };
  }
}

/**
 * SHA-256 of the canonical JSON of a value (keys sorted at every depth), as
 * base64url: the same arguments in another key order give the same digest.
 *
 * @example
 * ```ts
 * (await digestOf({ b: 1, a: 2 })) === (await digestOf({ a: 2, b: 1 })); // true
 * ```
 */
export async function digestOf(value: unknown): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(value)));
  return base64url(new Uint8Array(hash));
}

/** JSON with object keys sorted at every depth; `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function importKeys(secret: SecretInput | undefined): Promise<CryptoKey[]> {
  const secrets =
    secret === undefined
      ? [crypto.getRandomValues(new Uint8Array(32))]
      : Array.isArray(secret)
        ? secret
        : [secret as string | Uint8Array];
  if (secrets.length === 0) throw new TypeError('requestState.secret: give at least one secret.');
  return Promise.all(
    secrets.map((one) => {
      const bytes = typeof one === 'string' ? encoder.encode(one) : one;
      if (bytes.byteLength < 16)
        throw new TypeError('requestState.secret: a secret must have at least 16 bytes (32 recommended).');
      return crypto.subtle.importKey(
        'raw',
        bytes as Uint8Array<ArrayBuffer>,
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      );
    }),
  );
}
