/**
 * The bearer token each verified principal came with, kept beside it rather than on
 * it: `ctx.auth` never carries a token (a tool, a log line or an audit record that
 * prints `ctx.auth` shows none), yet a gateway that exchanges the person's token for
 * one to an upstream (RFC 8693) needs the token it verified. The resource server
 * remembers it here, keyed by the principal object it hands to `ctx.auth`; it is
 * forgotten with that object.
 */
import type { AuthInfo } from '../tool/types.js';

const tokens = new WeakMap<object, string>();

/** Remember the token `principal` was verified from (the resource server calls this). */
export function rememberSubjectToken(principal: object, token: string): void {
  tokens.set(principal, token);
}

/**
 * The verified token behind a call's `ctx.auth`, or undefined (no token, or not
 * verified by candor's resource server).
 *
 * @example
 * ```ts
 * const subjectToken = subjectTokenOf(ctx.auth);
 * ```
 */
export function subjectTokenOf(auth: AuthInfo | undefined): string | undefined {
  return auth === undefined ? undefined : tokens.get(auth);
}
