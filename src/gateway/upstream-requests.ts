/**
 * Requests and notifications an upstream sends while it runs a call —
 * elicitation, sampling, roots, log messages — go to the downstream client of
 * that call and the answers come back. The call is found through the
 * AsyncLocalStorage scope when the SDK runs the handler inside it, otherwise it
 * is the latest call in flight to that upstream (the 2025 protocol does not say
 * which of several concurrent calls a server request belongs to).
 */

import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { InputRequiredError } from '../engine/modern/call-context.js';
import { CandorError } from '../errors.js';
import { answerInputWith } from '../host/input-answerers.js';
import type { ElicitResult, LogLevel } from '../tool/types.js';
import { type CallScope, callScope } from './ask.js';
import type { MessageGuard } from './results/message-guard.js';

/**
 * The client capabilities a gateway declares upstream: it can pass these on. URL-mode
 * elicitation is declared because the gateway forwards it; a downstream client that
 * cannot open URLs answers `decline` through the gateway, as it would itself.
 */
export const FORWARDED_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: { listChanged: false },
};

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
export function forwardUpstreamRequests(
  server: string,
  client: Client,
  inFlight: InFlight,
  guard?: MessageGuard,
): void {
  const scopeOrFail = (what: string): CallScope => {
    const scope = inFlight.scopeFor(server);
    if (!scope)
      throw new CandorError(`candor gateway: ${server} sent ${what} outside any call; there is nobody to ask.`, {
        code: 'client_request_failed',
      });
    return scope;
  };
  // Registered as answerers too: a 2026-07-28 upstream task asks these through tasks/get.
  answerInputWith(client, 'elicitation/create', async (request) => {
    const scope = scopeOrFail('elicitation/create');
    const params = request.params as UpstreamElicitation;
    const message = `${server}: ${String(params.message ?? '')}`;
    if (params.mode === 'url') {
      const url = openableUrl(params.url);
      if (url === undefined) return { action: 'decline' };
      // A 2026-07-28 upstream sends no id (that era dropped it); a 2025-11-25 client still needs one.
      const id = typeof params.elicitationId === 'string' ? params.elicitationId : randomUUID();
      const elicitationId = gatewayElicitationId(server, id);
      return (await askDownstream(scope, () =>
        scope.ctx.elicit({ mode: 'url', message, url, elicitationId }),
      )) as never;
    }
    return (await askDownstream(scope, () =>
      scope.ctx.elicit({
        message,
        requestedSchema: (params.requestedSchema ?? { type: 'object', properties: {} }) as Record<string, unknown>,
      }),
    )) as never;
  });
  client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    // A URL flow finished upstream: tell the client that was shown the link (2025-11-25 downstream;
    // a 2026-07-28 client learns it by retrying the call).
    const id = (notification.params as { elicitationId?: unknown }).elicitationId;
    const scope = inFlight.scopeFor(server);
    if (scope && typeof id === 'string') scope.ctx.elicitationComplete(gatewayElicitationId(server, id));
  });
  answerInputWith(client, 'sampling/createMessage', async (request) => {
    const scope = scopeOrFail('sampling/createMessage');
    return (await scope.ctx.sample(request.params as never)) as never;
  });
  answerInputWith(client, 'roots/list', async () => {
    const scope = scopeOrFail('roots/list');
    return { roots: await scope.ctx.listRoots() } as never;
  });
  let logs: Promise<unknown> = Promise.resolve();
  client.setNotificationHandler('notifications/message', (notification) => {
    const params = notification.params as { level?: LogLevel; data?: unknown; logger?: string };
    const scope = inFlight.scopeFor(server);
    if (!scope || !params.level) return;
    const level = params.level;
    if (guard === undefined) {
      void scope.ctx.log(level, params.data, params.logger ?? server).catch(() => {});
      return;
    }
    // Log data passes the result guards too: an upstream's log is read by the model as well.
    // One after another, so the guard does not reorder them.
    logs = logs
      .then(() => guard(server, 'log', { data: params.data }))
      .then((guarded) => {
        const data =
          guarded.message?.data ?? `candor gateway: a log message of ${server} was withheld: ${guarded.withheld}.`;
        return scope.ctx.log(level, data, params.logger ?? server);
      })
      .catch(() => {});
  });
}

/** An upstream's `elicitation/create` params, either mode (kept loose: it is the upstream's word). */
interface UpstreamElicitation {
  mode?: unknown;
  message?: unknown;
  requestedSchema?: unknown;
  url?: unknown;
  elicitationId?: unknown;
}

/** Ask the downstream client; a 2026-07-28 downstream gets the question as input_required. */
async function askDownstream(scope: CallScope, ask: () => Promise<ElicitResult>): Promise<ElicitResult> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof InputRequiredError) {
      // 2026-07-28 downstream: the question goes out as input_required, and the retried call asks again.
      scope.inputRequired = error;
      return { action: 'cancel' };
    }
    // The client cannot answer this kind of question (no `elicitation.url`, no elicitation at all).
    return { action: 'decline' };
  }
}

/**
 * An upstream's URL as the client may be shown it: absolute https, or http to a
 * loopback host (a local sign-in page). Anything else (javascript:, file:, data:,
 * plain http to the network) is declined rather than passed to a person to open.
 */
export function openableUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  if (url.protocol === 'https:') return url.href;
  const loopback =
    url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  return url.protocol === 'http:' && loopback ? url.href : undefined;
}

/** Elicitation ids are unique per server; downstream they must be unique across the gateway's servers. */
export function gatewayElicitationId(server: string, id: string): string {
  return `${server}:${id}`;
}
