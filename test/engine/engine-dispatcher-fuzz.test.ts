/**
 * Property test: whatever arrives, the dispatcher answers with a well-formed
 * JSON-RPC response (or nothing, for a notification or a response), never
 * throws, and keeps serving afterwards.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { Channel } from '../../src/engine/channel.js';
import { classify, serializeMessage } from '../../src/engine/jsonrpc.js';
import { definePrompt } from '../../src/prompts/define.js';
import { defineResource, defineResourceTemplate } from '../../src/resources/define.js';
import { createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import { silentLogger } from '../../src/util/logger.js';
import { RESULT_SCHEMAS } from '../support/wire-check.js';

const server = createServer({
  name: 'fuzz',
  version: '1.0.0',
  logger: silentLogger,
  tools: [
    defineTool({
      name: 'echo',
      description: 'Echo.',
      effect: 'read',
      world: 'closed',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => text,
    }),
    defineTool({
      name: 'typed',
      description: 'Typed output.',
      effect: 'read',
      world: 'closed',
      input: { type: 'object', properties: { n: { type: 'number' } } },
      output: z.object({ n: z.number() }),
      handler: (args: any) => ({ n: args.n }),
    }),
  ],
  resources: [
    defineResource({ uri: 'docs://a', name: 'a', read: () => 'A' }),
    defineResourceTemplate({
      uriTemplate: 'x://{id}{?q}',
      name: 'x',
      complete: { id: (v) => [v] },
      read: ({ uri }) => uri,
    }),
  ],
  prompts: [definePrompt({ name: 'p', arguments: [{ name: 'a', required: true }], get: ({ a }) => `a=${a}` })],
});
const sent: unknown[] = [];
const channel: Channel = { open: true, send: (m) => void sent.push(m) };

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'nope/nope',
];

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.double(), fc.boolean());
const params = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(
    fc.constantFrom(
      'name',
      'arguments',
      'uri',
      'cursor',
      'level',
      'protocolVersion',
      'ref',
      'argument',
      'requestId',
      '_meta',
    ),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 5 },
  ),
  fc.record({ name: fc.constantFrom('echo', 'typed', 'missing', 'p'), arguments: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ uri: fc.constantFrom('docs://a', 'x://1?q=2', 'x://', 'nope://'), cursor: fc.string() }),
  fc.anything({ maxDepth: 2 }),
);
const messageLike = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), fc.string({ maxLength: 3 })),
    id,
    method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 12 }), fc.integer()),
    params,
    result: fc.jsonValue({ maxDepth: 2 }),
    error: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const responseLike = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id, result: fc.object({ maxDepth: 2 }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, error: fc.record({ code: fc.integer(), message: fc.string() }) }),
);
const plausible = fc.oneof(
  fc
    .constantFrom('ping', 'tools/list', 'resources/list', 'prompts/list', 'resources/templates/list')
    .map((method) => ({ method, params: {} })),
  fc.record({
    method: fc.constant('tools/call'),
    params: fc.record({
      name: fc.constant('echo'),
      arguments: fc.record({ text: fc.oneof(fc.string(), fc.integer()) }),
    }),
  }),
  fc.record({
    method: fc.constant('tools/call'),
    params: fc.record({
      name: fc.constant('typed'),
      arguments: fc.record({ n: fc.oneof(fc.double(), fc.string()) }, { requiredKeys: [] }),
    }),
  }),
  fc.record({
    method: fc.constant('resources/read'),
    params: fc.record({ uri: fc.oneof(fc.constantFrom('docs://a', 'x://1?q=2'), fc.webUrl()) }),
  }),
  fc.record({
    method: fc.constant('prompts/get'),
    params: fc.record({
      name: fc.constant('p'),
      arguments: fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.string(), fc.integer())),
    }),
  }),
  fc.record({
    method: fc.constant('completion/complete'),
    params: fc.record({
      ref: fc.constantFrom({ type: 'ref/prompt', name: 'p' }, { type: 'ref/resource', uri: 'x://{id}{?q}' }),
      argument: fc.record({ name: fc.constantFrom('a', 'id'), value: fc.string() }),
    }),
  }),
  fc.record({
    method: fc.constant('logging/setLevel'),
    params: fc.record({ level: fc.constantFrom('debug', 'error', 'loud') }),
  }),
);
// Notifications get their own generator: from messageLike alone they arrive only when
// the id happens to be left out and the method is a string, about 20 in 1,500 runs.
const notificationLike = fc.record(
  {
    jsonrpc: fc.constant('2.0'),
    method: fc.oneof(
      fc.constantFrom(
        'notifications/initialized',
        'notifications/cancelled',
        'notifications/progress',
        'notifications/roots/list_changed',
      ),
      fc.string({ maxLength: 12 }),
    ),
    params,
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);
const validRequest = fc
  .tuple(fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), plausible)
  .map(([reqId, m]) => ({ jsonrpc: '2.0', id: reqId, ...m }));
const anyMessage = fc.oneof(
  { weight: 5, arbitrary: messageLike },
  { weight: 4, arbitrary: validRequest },
  { weight: 2, arbitrary: notificationLike },
  { weight: 1, arbitrary: responseLike },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(messageLike, { maxLength: 40 }) },
);

function checkResponse(message: unknown): void {
  expect(JSONRPCMessageSchema.safeParse(message).success, JSON.stringify(message)).toBe(true);
  const m = message as Record<string, unknown>;
  expect(m.jsonrpc).toBe('2.0');
  expect('result' in m !== 'error' in m).toBe(true);
  expect(() => JSON.parse(serializeMessage(message as never))).not.toThrow();
}

describe('the dispatcher under arbitrary input', () => {
  test('always a well-formed answer, or none for notifications and responses, never a throw', async () => {
    const seen: Record<string, number> = { request: 0, notification: 0, response: 0, invalid: 0, batch: 0, result: 0 };
    await fc.assert(
      fc.asyncProperty(anyMessage, async (input) => {
        const peer = server.dispatcher.createPeer({ channel });
        try {
          const raw = await server.dispatcher.handle(structuredClone(input), { peer, channel });
          // Judge what goes on the wire (tools/list results are RawJson until serialised).
          const answer = raw === undefined ? undefined : JSON.parse(serializeMessage(raw));
          const kind = Array.isArray(input) ? 'batch' : classify(input);
          seen[kind] = (seen[kind] ?? 0) + 1;
          if (answer !== undefined && !Array.isArray(answer) && 'result' in answer)
            seen.result = (seen.result ?? 0) + 1;
          if (kind === 'notification' || kind === 'response') expect(answer).toBeUndefined();
          if (kind === 'request') {
            expect(answer).toBeDefined();
            // Compared as they travel: JSON has one zero, so an id of -0 comes back as 0.
            expect(JSON.stringify((answer as { id: unknown }).id)).toBe(JSON.stringify((input as { id: unknown }).id));
            const schema = RESULT_SCHEMAS[(input as { method: string }).method];
            if (schema && 'result' in (answer as object)) {
              const parsed = schema.safeParse((answer as { result: unknown }).result);
              expect(parsed.success, JSON.stringify(answer)).toBe(true);
            }
          }
          if (kind === 'invalid') expect((answer as { error?: { code: number } }).error?.code).toBe(-32600);
          for (const response of Array.isArray(answer) ? answer : answer === undefined ? [] : [answer]) {
            checkResponse(response);
          }
          // Still alive: the same peer answers a ping.
          expect(
            await server.dispatcher.handle({ jsonrpc: '2.0', id: 'alive', method: 'ping' }, { peer, channel }),
          ).toEqual({
            jsonrpc: '2.0',
            id: 'alive',
            result: {},
          });
        } finally {
          peer.close();
        }
      }),
      { numRuns: 1500 },
    );
    for (const message of sent) expect(JSONRPCMessageSchema.safeParse(message).success).toBe(true);
    // The generator must reach every kind of input, and some calls must succeed, or this proves little.
    for (const kind of Object.keys(seen)) expect(seen[kind], kind).toBeGreaterThan(20);
  });
});
