/**
 * Short-lived sealed values for the person check of per-person sign-ins: the
 * link a person is sent, the `state` of the gateway's own sign-in and the cookie
 * that remembers who the browser belongs to. Encrypted and authenticated (JWE,
 * `dir` + A256GCM, by jose) under a key derived from the token key, so any
 * gateway instance with that key can open them and nobody can read or forge them.
 */
import { hkdfSync } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';

/** What a sealed value is for: a value sealed for one use never opens as another. */
export type SealKind = 'link' | 'state' | 'person';

/** Seal and open values for the person check. */
export class PersonSeal {
  readonly #key: Uint8Array;

  constructor(tokenKey: Uint8Array) {
    this.#key = new Uint8Array(hkdfSync('sha256', tokenKey, 'candor-person-check', 'jwe-a256gcm', 32));
  }

  /**
   * @example
   * ```ts
   * const sealed = await seal.seal('person', { sub: 'alice' }, 600_000);
   * ```
   */
  async seal(kind: SealKind, value: Record<string, unknown>, ttlMs: number): Promise<string> {
    return new EncryptJWT({ v: value })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setAudience(`candor-${kind}`)
      .setIssuedAt()
      .setExpirationTime(Math.floor((Date.now() + ttlMs) / 1000))
      .encrypt(this.#key);
  }

  /** The value, or undefined when it is not one of ours, was sealed for another use, or expired. */
  async open<T>(kind: SealKind, sealed: string | null | undefined): Promise<T | undefined> {
    if (!sealed || sealed.length > 8192) return undefined;
    try {
      const { payload } = await jwtDecrypt(sealed, this.#key, { audience: `candor-${kind}` });
      return payload.v as T;
    } catch {
      return undefined;
    }
  }
}
