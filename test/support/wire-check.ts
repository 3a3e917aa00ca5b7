/**
 * Checks every message a server sends against the official zod schemas of
 * `@modelcontextprotocol/core` ("every message the engine emits in the
 * test suite is checked"). Wrap any SDK client transport with
 * `wireCheck.wrap(transport)`, or feed messages by hand with
 * `wireCheck.client(msg)` / `wireCheck.server(msg)`; then
 * `wireCheck.assertClean()`.
 *
 * Responses are checked against the result schema of the request they answer
 * (tools/call → CallToolResultSchema, …), notifications against
 * ServerNotificationSchema, server requests against ServerRequestSchema.
 *
 * @example
 * ```ts
 * const wire = createWireCheck();
 * await client.connect(wire.wrap(server.connectMemory()));
 * // … test …
 * wire.assertClean();
 * ```
 */
import {
  CallToolResultSchema,
  CompleteResultSchema,
  EmptyResultSchema,
  GetPromptResultSchema,
  InitializeResultSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
  ReadResourceResultSchema,
  ServerNotificationSchema,
  ServerRequestSchema,
} from '@modelcontextprotocol/core';

type Schema = { safeParse(value: unknown): { success: boolean; error?: { message: string } } };

/** The result schema for each client request method. */
export const RESULT_SCHEMAS: Readonly<Record<string, Schema>> = {
  initialize: InitializeResultSchema,
  ping: EmptyResultSchema,
  'tools/list': ListToolsResultSchema,
  'tools/call': CallToolResultSchema,
  'resources/list': ListResourcesResultSchema,
  'resources/templates/list': ListResourceTemplatesResultSchema,
  'resources/read': ReadResourceResultSchema,
  'resources/subscribe': EmptyResultSchema,
  'resources/unsubscribe': EmptyResultSchema,
  'prompts/list': ListPromptsResultSchema,
  'prompts/get': GetPromptResultSchema,
  'completion/complete': CompleteResultSchema,
  'logging/setLevel': EmptyResultSchema,
};

/** A transport shape shared by the SDK v1 and v2 clients. */
export interface AnyTransport {
  start(): Promise<void>;
  send(message: any, options?: any): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  [key: string]: any;
}

export interface WireCheck {
  /** Every message the server sent, in order. */
  readonly serverMessages: unknown[];
  /** Every problem found so far (empty when all is well). */
  readonly problems: string[];
  /** Record a message the client sent (so responses can be matched to their method). */
  client(message: unknown): void;
  /** Check a message the server sent. */
  server(message: unknown): void;
  /** Wrap a client transport so both directions are recorded and checked. */
  wrap<T extends AnyTransport>(transport: T): T;
  /** Throw with every problem listed, if any. */
  assertClean(): void;
}

/** Create a checker (one per connection: request ids are matched per checker). */
export function createWireCheck(): WireCheck {
  const methods = new Map<string | number, string>();
  const serverMessages: unknown[] = [];
  const problems: string[] = [];
  const check = (label: string, schema: Schema, value: unknown) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) problems.push(`${label}: ${JSON.stringify(value)}\n  ${parsed.error?.message}`);
  };
  const server = (message: unknown) => {
    for (const m of Array.isArray(message) ? message : [message]) {
      serverMessages.push(m);
      check('not a JSON-RPC message', JSONRPCMessageSchema, m);
      const msg = m as { id?: string | number; method?: string; result?: unknown; error?: unknown };
      if (typeof msg.method === 'string') {
        if ('id' in msg)
          check(`server request ${msg.method}`, ServerRequestSchema, { method: msg.method, params: (m as any).params });
        else
          check(`server notification ${msg.method}`, ServerNotificationSchema, {
            method: msg.method,
            params: (m as any).params,
          });
      } else if ('error' in msg) {
        check('error response', JSONRPCErrorResponseSchema, m);
      } else if ('result' in msg && msg.id !== undefined) {
        const method = methods.get(msg.id);
        const schema = method === undefined ? undefined : RESULT_SCHEMAS[method];
        if (method === undefined) problems.push(`response to an unknown request id ${JSON.stringify(msg.id)}`);
        else if (schema) check(`result of ${method}`, schema, msg.result);
      }
    }
  };
  const client = recordRequests(methods);
  return {
    serverMessages,
    problems,
    client,
    server,
    wrap: (transport) => tapTransport(transport, { server, client }),
    assertClean() {
      if (problems.length > 0)
        throw new Error(`The server sent ${problems.length} malformed message(s):\n${problems.join('\n')}`);
    },
  };
}

/**
 * A proxy in front of a real SDK transport: every message the server sends goes
 * to `server` and every message the client sends to `client` before they travel
 * on. The client installs its callbacks on the proxy; the real transport reports
 * to ours, which look, then forward.
 */
export function tapTransport<T extends AnyTransport>(
  transport: T,
  taps: { server: (message: any) => void; client: (message: any) => void },
): T {
  const callbacks: Pick<AnyTransport, 'onmessage' | 'onclose' | 'onerror'> = {};
  transport.onmessage = (message: any, extra?: any) => {
    taps.server(message);
    callbacks.onmessage?.(message, extra);
  };
  transport.onclose = () => callbacks.onclose?.();
  transport.onerror = (error: Error) => callbacks.onerror?.(error);
  const send = (message: any, options?: any) => {
    taps.client(message);
    return transport.send(message, options);
  };
  return new Proxy(transport, {
    get(target, key, receiver) {
      if (key === 'onmessage' || key === 'onclose' || key === 'onerror') return callbacks[key];
      if (key === 'send') return send;
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, key, value, receiver) {
      if (key === 'onmessage' || key === 'onclose' || key === 'onerror') {
        callbacks[key] = value;
        return true;
      }
      return Reflect.set(target, key, value, receiver);
    },
  });
}

/**
 * A tap for what the client sends: remembers the method of every request by id,
 * so a response can be checked against the schema of the method it answers.
 */
export function recordRequests(methods: Map<string | number, string>): (message: unknown) => void {
  return (message) => {
    for (const m of Array.isArray(message) ? message : [message]) {
      const msg = m as { id?: string | number; method?: string };
      if (typeof msg.method === 'string' && msg.id !== undefined) methods.set(msg.id, msg.method);
    }
  };
}
