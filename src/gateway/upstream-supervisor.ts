/**
 * Upstream health: each upstream's state as the status resource reports it, and
 * reconnection with exponential backoff while the others keep serving. An upstream
 * that is only signed out is reported with the one command that fixes it.
 */
import { findSignInRequired } from '../auth/client/sign-in-required.js';
import type { Host } from '../host/host-api.js';
import type { ServerLogger } from '../util/logger.js';
import type { UpstreamStatus } from './status.js';

/** What an {@link UpstreamSupervisor} works with. */
export interface UpstreamSupervisorOptions {
  host: Host;
  /** The status records it keeps current (shared with the status resource and the catalog sync). */
  upstream: ReadonlyMap<string, UpstreamStatus>;
  logger: ServerLogger;
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number } | undefined;
  /** Servers each person signs in to separately (their sign-in note says so). */
  perUser: ReadonlySet<string>;
  /** An upstream came up; `wasDown` when it had been reported down. */
  onUp: (server: string, wasDown: boolean) => Promise<void>;
}

/**
 * Watches the upstreams.
 *
 * @example
 * ```ts
 * const supervisor = new UpstreamSupervisor({ host, upstream, logger, perUser: new Set(), onUp: async () => {} });
 * await supervisor.check();
 * supervisor.start(500);
 * ```
 */
export class UpstreamSupervisor {
  readonly #options: UpstreamSupervisorOptions;
  readonly #retries = new Map<string, { attempt: number; next: number }>();
  #checking = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: UpstreamSupervisorOptions) {
    this.#options = options;
  }

  /** Look at every upstream once: record its state, and retry those that are due. */
  async check(): Promise<void> {
    const { host, upstream, logger } = this.#options;
    const initialDelay = this.#options.reconnect?.initialDelayMs ?? 1_000;
    const maxDelay = this.#options.reconnect?.maxDelayMs ?? 60_000;
    for (const state of host.servers()) {
      const status = upstream.get(state.name)!;
      status.era = state.era;
      status.protocolVersion = state.protocolVersion;
      if (state.status === 'connected') {
        if (status.state !== 'up') {
          const wasDown = status.state === 'down';
          if (wasDown) logger.info(`${state.name}: upstream is back`);
          status.state = 'up';
          delete status.error;
          delete status.retryAt;
          delete status.signIn;
          this.#retries.delete(state.name);
          await this.#options.onUp(state.name, wasDown);
        }
        continue;
      }
      const now = Date.now();
      const retry = this.#retries.get(state.name) ?? { attempt: 0, next: now };
      if (status.state !== 'down' || (state.signIn !== undefined && status.signIn !== state.signIn)) {
        status.state = 'down';
        if (state.signIn !== undefined) {
          // Not broken, only signed out: say the one thing that fixes it.
          status.signIn = state.signIn;
          status.error = this.#signInError(state.name, state.signIn);
          logger.warn(`${state.name}: ${status.error} (its tools join once signed in)`);
        } else {
          status.error = state.error ?? `the connection is ${state.status}`;
          logger.warn(`${state.name}: upstream is down (${status.error}); retrying with backoff`);
        }
      }
      if (now < retry.next) continue;
      retry.attempt += 1;
      retry.next = now + Math.min(maxDelay, initialDelay * 2 ** (retry.attempt - 1));
      status.retryAt = new Date(retry.next).toISOString();
      this.#retries.set(state.name, retry);
      try {
        await host.refresh(state.name);
      } catch (error) {
        const required = findSignInRequired(error);
        status.error = required ? this.#signInError(state.name, required.command) : (error as Error).message;
        if (required) status.signIn = required.command;
      }
    }
  }

  /** Check every `intervalMs` (a check still running is not started twice). */
  start(intervalMs: number): void {
    this.#timer = setInterval(() => {
      if (this.#checking) return;
      this.#checking = true;
      this.check()
        .catch((error: Error) => this.#options.logger.warn(`upstream check failed: ${error.message}`))
        .finally(() => {
          this.#checking = false;
        });
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #signInError(name: string, command: string): string {
    const perPerson = this.#options.perUser.has(name)
      ? ' (to list its tools; each person then signs in on their first call)'
      : '';
    return `needs sign-in: ${command}${perPerson}`;
  }
}
