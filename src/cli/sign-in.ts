/**
 * Signing a person in from the command line: the browser round trip of
 * `candor auth login`, and the same when a connecting command meets a server that wants a
 * sign-in while a person is at the terminal. Without one (CI, no TTY, a host running the
 * gateway), nothing opens: the command fails with the line naming `candor auth login`.
 */
import { CredentialsStore } from '../auth/client/credentials-store.js';
import { type SignInResult, signIn } from '../auth/client/sign-in.js';
import type { SignInRequiredError } from '../auth/client/sign-in-required.js';
import { loginOperand } from '../targets/connect.js';
import type { HttpTarget } from '../targets/types.js';
import { openBrowser } from './open-browser.js';

/** Whether a person can be asked: stdin and stderr are terminals and this is not CI. */
export function canAskPerson(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  return Boolean(process.stdin.isTTY && process.stderr.isTTY) && !ci;
}

export interface SignInTargetOptions {
  /** Print the URL instead of starting a browser. */
  noBrowser?: boolean;
  scopes?: string[];
  timeoutMs?: number;
  store?: CredentialsStore;
  /** Where progress lines go (default stderr). */
  write?: (line: string) => void;
}

/**
 * Sign in to an HTTP target through the browser.
 *
 * @example
 * ```ts
 * await signInTarget(target, { noBrowser: true });
 * ```
 */
export async function signInTarget(target: HttpTarget, options: SignInTargetOptions = {}): Promise<SignInResult> {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  return signIn({
    serverUrl: target.url,
    store: options.store ?? new CredentialsStore(),
    ...(target.auth ? { client: target.auth.client } : {}),
    label: target.label,
    loginCommand: `candor auth login ${loginOperand(target)}`,
    ...(options.scopes ? { scopes: options.scopes } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    open: async (url) => {
      if (options.noBrowser) {
        write(`Open this URL in a browser to sign in to ${target.label}:\n  ${url}`);
        return;
      }
      write(`Signing in to ${target.label} in your browser… (if nothing opens, visit:\n  ${url} )`);
      await openBrowser(url, { warn: write });
    },
  });
}

/**
 * The `onSignInRequired` hook for connecting commands: on a terminal, sign in and
 * connect again; elsewhere, fail with the message that names `candor auth login`.
 */
export function signInWhenAsked(
  options: SignInTargetOptions = {},
): (required: SignInRequiredError, target: HttpTarget) => Promise<boolean> {
  return async (required, target) => {
    if (!canAskPerson()) return false;
    const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
    write(required.message);
    await signInTarget(target, { ...options, ...(required.scope ? { scopes: required.scope.split(' ') } : {}) });
    return true;
  };
}
