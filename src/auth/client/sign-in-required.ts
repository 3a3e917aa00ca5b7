/**
 * The one error every connecting command and the host show when a server wants a
 * sign-in that cannot happen here (no terminal, CI, a gateway under a host): it names
 * the command that fixes it.
 */
import { CandorError } from '../../errors.js';

/** Why a sign-in is needed. */
export type SignInReason = 'missing' | 'refused' | 'scope';

/**
 * A server answered 401 (or 403 `insufficient_scope`) and there is no usable sign-in.
 *
 * @example
 * ```ts
 * const required = findSignInRequired(error);
 * if (required) console.error(required.message); // "… needs sign-in: candor auth login linear"
 * ```
 */
export class SignInRequiredError extends CandorError {
  override readonly name = 'SignInRequiredError';
  readonly reason: SignInReason;
  /** The command that signs in, e.g. `candor auth login mcp.json#linear`. */
  readonly command: string;
  /** For a step-up: the scopes the new sign-in must ask for. */
  readonly scope: string | undefined;

  constructor(options: { label: string; reason: SignInReason; command: string; scope?: string }) {
    const { label, reason, command, scope } = options;
    const message =
      reason === 'scope'
        ? `${label} needs a new sign-in with more scopes (${scope ?? 'more'}): ${command}${scope ? ` --scope ${scope}` : ''}`
        : reason === 'refused'
          ? `${label}: the stored sign-in was refused (its refresh token is no longer valid); needs sign-in again: ${command}`
          : `${label} needs sign-in: ${command}`;
    super(message, { code: 'sign_in_required' });
    this.reason = reason;
    this.command = scope && reason === 'scope' ? `${command} --scope ${scope}` : command;
    this.scope = scope;
  }
}

/** The {@link SignInRequiredError} anywhere in an error's cause chain. */
export function findSignInRequired(error: unknown): SignInRequiredError | undefined {
  for (let e = error, depth = 0; e && depth < 8; depth++) {
    if (e instanceof SignInRequiredError || (e as { name?: unknown }).name === 'SignInRequiredError') {
      return e as SignInRequiredError;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
