/**
 * Requests and notifications an upstream sends while it runs a call —
 * elicitation, sampling, roots, log messages — go to the downstream client of
 * that call and the answers come back. The call is found through the
 * AsyncLocalStorage scope when the SDK runs the handler inside it, otherwise it
 * is the latest call in flight to that upstream (the 2025 protocol does not say
 * which of several concurrent calls a server request belongs to).
 */

import type { Client } from '@modelcontextprotocol/client';
import { InputRequiredError } from '../engine/modern/call-context.js';
import { CandorError } from '../errors.js';
import type { LogLevel } from '../tool/types.js';
import { type CallScope, callScope } from './ask.js';

/** The client capabilities a gateway declares upstream: it can pass these on. */
export const FORWARDED_CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: { listChanged: false } };

/** Calls in flight per upstream server. */
export class InFlight {
  readonly #byServer = new Map<string, Set<CallScope>>();

  /**
   * Track a call while `run` runs. `locate`: run it inside `callScope`, so that a request
   * the upstream sends on this call's own stream (Streamable HTTP) finds it among several;
   * over stdio nothing ties a request to a call, and the scope would only cost every
   * promise in the process a hook.
   */
  async track<T>(scope: CallScope, run: () => Promise<T>, locate = true): Promise<T> {
    const set = this.#byServer.get(scope.server) ?? new Set<CallScope>();
    this.#byServer.set(scope.server, set);
    set.add(scope);
    try {
      const result = await (locate ? callScope.run(scope, run) : run());
      // The SDK client hands notifications that arrived with the response (a final log line)
      // to their handlers just after it resolves the call: keep the call open one turn for them.
      await new Promise<void>((resolve) => setImmediate(resolve));
      return result;
    } finally {
      set.delete(scope);
    }
  }

  /** The call an upstream's request belongs to, if any. */
  scopeFor(server: string): CallScope | undefined {
    const current = callScope.getStore();
    if (current?.server === server) return current;
    let latest: CallScope | undefined;
    for (const scope of this.#byServer.get(server) ?? []) latest = scope;
    return latest;
  }
}

/**
 * Wire an upstream client's request and notification handlers to the downstream calls.
 *
 * @example
 * ```ts
 * createHost({ servers, clientCapabilities: FORWARDED_CAPABILITIES, onClient: (s, c) => forwardUpstreamRequests(s, c, inFlight) });
 * ```
 */
export function forwardUpstreamRequests(server: string, client: Client, inFlight: InFlight): void {
  const scopeOrFail = (what: string): CallScope => {
    const scope = inFlight.scopeFor(server);
    if (!scope)
      throw new CandorError(`candor gateway: ${server} sent ${what} outside any call; there is nobody to ask.`, {
        code: 'client_request_failed',
      });
    return scope;
  };
  client.setRequestHandler('elicitation/create', async (request) => {
    const scope = scopeOrFail('elicitation/create');
    const params = request.params as { message?: unknown; requestedSchema?: unknown; mode?: unknown };
    if (params.mode === 'url') return { action: 'decline' };
    try {
      const answer = await scope.ctx.elicit({
        message: `${server}: ${String(params.message ?? '')}`,
        requestedSchema: (params.requestedSchema ?? { type: 'object', properties: {} }) as Record<string, unknown>,
      });
      return answer as never;
    } catch (error) {
      if (error instanceof InputRequiredError) {
        // 2026-07-28 downstream: the question goes out as input_required, and the retried call asks again.
        scope.inputRequired = error;
        return { action: 'cancel' };
      }
      return { action: 'decline' };
    }
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const scope = scopeOrFail('sampling/createMessage');
    return (await scope.ctx.sample(request.params as never)) as never;
  });
  client.setRequestHandler('roots/list', async () => {
    const scope = scopeOrFail('roots/list');
    return { roots: await scope.ctx.listRoots() } as never;
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    const params = notification.params as { level?: LogLevel; data?: unknown; logger?: string };
    const scope = inFlight.scopeFor(server);
    if (!scope || !params.level) return;
    void scope.ctx.log(params.level, params.data, params.logger ?? server).catch(() => {});
  });
}
