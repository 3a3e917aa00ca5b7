/**
 * Checks every message a server sends in the 2026-07-28 era ("every
 * message emitted validates against the 2026-07-28 schemas"). The zod schemas
 * of `@modelcontextprotocol/core` are shared by both eras and so leave the new
 * fields optional; the rules schema/2026-07-28/schema.ts makes required are
 * checked on top:
 *
 * - every result has `resultType` (`complete` or `input_required`);
 * - complete results of discover, the four lists and resources/read carry
 *   `ttlMs` (integer ≥ 0) and `cacheScope` (`public` | `private`);
 * - `input_required` only answers tools/call, prompts/get, resources/read, has
 *   `inputRequests` or `requestState`, and embeds only elicitation, sampling
 *   and roots requests (each checked with its schema); no caching hints;
 * - `_meta['io.modelcontextprotocol/serverInfo']`, when present, is an Implementation;
 * - the server sends no JSON-RPC requests (MRTR replaced them);
 * - notifications on a listen stream carry `io.modelcontextprotocol/subscriptionId`;
 * - errors use only the codes the spec defines in -32020…-32099, and never -32002.
 *
 * @example
 * ```ts
 * const wire = createModernWireCheck();
 * await client.connect(wire.wrap(transport));
 * // … test …
 * wire.assertClean();
 * ```
 */
import {
  CallToolResultSchema,
  CompleteResultSchema,
  CreateMessageRequestSchema,
  DiscoverResultSchema,
  ElicitRequestSchema,
  GetPromptResultSchema,
  ImplementationSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListRootsRequestSchema,
  ListToolsResultSchema,
  ReadResourceResultSchema,
  ServerNotificationSchema,
  SubscriptionsAcknowledgedNotificationSchema,
  SubscriptionsListenResultSchema,
} from '@modelcontextprotocol/core';
import { type AnyTransport, recordRequests, tapTransport } from './wire-check.js';

type Schema = { safeParse(value: unknown): { success: boolean; error?: { message: string } } };

const RESULTS: Readonly<Record<string, Schema>> = {
  'server/discover': DiscoverResultSchema,
  'tools/list': ListToolsResultSchema,
  'tools/call': CallToolResultSchema,
  'resources/list': ListResourcesResultSchema,
  'resources/templates/list': ListResourceTemplatesResultSchema,
  'resources/read': ReadResourceResultSchema,
  'prompts/list': ListPromptsResultSchema,
  'prompts/get': GetPromptResultSchema,
  'completion/complete': CompleteResultSchema,
  'subscriptions/listen': SubscriptionsListenResultSchema,
};
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);
const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
const EMBEDDED: Readonly<Record<string, Schema>> = {
  'elicitation/create': ElicitRequestSchema,
  'sampling/createMessage': CreateMessageRequestSchema,
  'roots/list': ListRootsRequestSchema,
};
const LISTEN_NOTIFICATIONS = new Set([
  'notifications/subscriptions/acknowledged',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
]);
const DEFINED_RESERVED_CODES = new Set([-32020, -32021, -32022]);
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

export interface ModernWireCheck {
  readonly serverMessages: unknown[];
  readonly problems: string[];
  client(message: unknown): void;
  server(message: unknown): void;
  wrap<T extends AnyTransport>(transport: T): T;
  assertClean(): void;
  /** Results seen, by method (for assertions on what went over the wire). */
  resultsOf(method: string): any[];
}

/** Create a checker for one client connection. */
export function createModernWireCheck(): ModernWireCheck {
  const methods = new Map<string | number, string>();
  const serverMessages: unknown[] = [];
  const problems: string[] = [];
  const results = new Map<string, any[]>();
  const check = (label: string, schema: Schema, value: unknown) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) problems.push(`${label}: ${JSON.stringify(value)}\n  ${parsed.error?.message}`);
  };
  const fail = (label: string, value: unknown) => problems.push(`${label}: ${JSON.stringify(value)}`);

  const checkResult = (method: string, result: any) => {
    results.set(method, [...(results.get(method) ?? []), result]);
    if (result._meta?.[SERVER_INFO] !== undefined)
      check(`serverInfo of ${method}`, ImplementationSchema, result._meta[SERVER_INFO]);
    if (result.resultType === 'input_required') {
      if (!MRTR_METHODS.has(method)) fail(`input_required on ${method}, which may not have it`, result);
      if (result.inputRequests === undefined && result.requestState === undefined) {
        fail('input_required without inputRequests or requestState', result);
      }
      if (result.requestState !== undefined && typeof result.requestState !== 'string')
        fail('requestState is not a string', result);
      if ('ttlMs' in result || 'cacheScope' in result) fail('input_required carries caching hints', result);
      for (const [key, request] of Object.entries<any>(result.inputRequests ?? {})) {
        const schema = EMBEDDED[request?.method];
        if (schema === undefined)
          fail(`inputRequests["${key}"] is not an elicitation, sampling or roots request`, request);
        else check(`inputRequests["${key}"]`, schema, request);
      }
      return;
    }
    if (result.resultType !== 'complete') fail(`result of ${method} without a valid resultType`, result);
    const schema = RESULTS[method];
    if (schema) check(`result of ${method}`, schema, result);
    if (CACHEABLE.has(method)) {
      if (!(Number.isInteger(result.ttlMs) && result.ttlMs >= 0)) fail(`result of ${method} without ttlMs ≥ 0`, result);
      if (result.cacheScope !== 'public' && result.cacheScope !== 'private')
        fail(`result of ${method} without cacheScope`, result);
    }
    if (
      method === 'server/discover' &&
      !(Array.isArray(result.supportedVersions) && result.supportedVersions.includes('2026-07-28'))
    ) {
      fail('discover result does not list 2026-07-28', result);
    }
  };

  const server = (message: unknown) => {
    for (const m of Array.isArray(message) ? message : [message]) {
      serverMessages.push(m);
      check('not a JSON-RPC message', JSONRPCMessageSchema, m);
      const msg = m as { id?: string | number; method?: string; result?: any; error?: any; params?: any };
      if (typeof msg.method === 'string') {
        if ('id' in msg) {
          fail('the server sent a JSON-RPC request (2026-07-28 embeds them in input_required results)', m);
          continue;
        }
        check(`notification ${msg.method}`, ServerNotificationSchema, { method: msg.method, params: msg.params });
        if (msg.method === 'notifications/subscriptions/acknowledged') {
          check('acknowledgement', SubscriptionsAcknowledgedNotificationSchema, m);
        }
        if (LISTEN_NOTIFICATIONS.has(msg.method) && msg.params?._meta?.[SUBSCRIPTION_ID] === undefined) {
          fail(`${msg.method} without ${SUBSCRIPTION_ID}`, m);
        }
      } else if ('error' in msg) {
        check('error response', JSONRPCErrorResponseSchema, m);
        const code = msg.error?.code;
        if (code === -32002) fail('error code -32002, which 2026-07-28 forbids', m);
        if (code <= -32020 && code >= -32099 && !DEFINED_RESERVED_CODES.has(code))
          fail('an undefined reserved error code', m);
      } else if ('result' in msg && msg.id !== undefined) {
        const method = methods.get(msg.id);
        if (method === undefined) fail(`response to an unknown request id ${JSON.stringify(msg.id)}`, m);
        else checkResult(method, msg.result);
      }
    }
  };
  const client = recordRequests(methods);
  return {
    serverMessages,
    problems,
    client,
    server,
    resultsOf: (method) => results.get(method) ?? [],
    wrap: (transport) => tapTransport(transport, { server, client }),
    assertClean() {
      if (problems.length > 0) throw new Error(`wire problems:\n${problems.join('\n')}`);
    },
  };
}
