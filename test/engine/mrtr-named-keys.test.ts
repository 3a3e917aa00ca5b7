/**
 * Asking the client in the 2026-07-28 era (multi round-trip requests):
 * questions named by the handler (`{ key }`), several asked at once going out
 * in one round, answers a client sends before it is asked, and
 * `ctx.clientCapabilities` in both eras. Over Streamable HTTP, with raw
 * requests where the wire shape is the point and the SDK v2 client (which
 * answers input_required by itself) where interop is.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEverythingServer } from '../../examples/everything/server.js';
import { type CandorServer, createServer, definePrompt, defineTool } from '../../src/index.js';
import { modernClient } from '../support/task-wire.js';

const NAME = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'Bonjour' }, model: 'test-model' };

let server: CandorServer;
let url: string;
let everything: CandorServer;
let everythingUrl: string;
let closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = createServer({
    name: 'mrtr-keys',
    version: '1.0.0',
    lintOnStart: false,
    tools: [
      defineTool({
        name: 'named',
        description: 'Ask a name under the key who.',
        effect: 'read',
        world: 'closed',
        handler: async (_args, ctx) => {
          const answer = await ctx.elicit({ message: 'Name?', requestedSchema: NAME }, { key: 'who' });
          return `Hello, ${String(answer.content?.name)}`;
        },
      }),
      defineTool({
        name: 'together',
        description: 'Ask a name and a sample at once.',
        effect: 'read',
        world: 'closed',
        handler: async (_args, ctx) => {
          const [person, sample] = await Promise.all([
            ctx.elicit({ message: 'Name?', requestedSchema: NAME }, { key: 'who' }),
            ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 }),
          ]);
          return `${String(person.content?.name)} / ${JSON.stringify(sample.content)}`;
        },
      }),
      defineTool({
        name: 'twice',
        description: 'Ask two questions under one key (a mistake).',
        effect: 'read',
        world: 'closed',
        handler: async (_args, ctx) => {
          await ctx.elicit({ message: 'One?', requestedSchema: NAME }, { key: 'same' }).catch(() => undefined);
          await ctx.elicit({ message: 'Two?', requestedSchema: NAME }, { key: 'same' });
          return 'unreachable';
        },
      }),
      defineTool({
        name: 'capabilities',
        description: 'Say what the client declared.',
        effect: 'read',
        world: 'closed',
        handler: (_args, ctx) => Object.keys(ctx.clientCapabilities).sort().join(','),
      }),
    ],
    prompts: [
      definePrompt({
        name: 'brief',
        description: 'Ask for context under the key topic.',
        get: async (_args, ctx) => {
          const answer = await ctx.elicit(
            { message: 'Topic?', requestedSchema: { type: 'object', properties: { topic: { type: 'string' } } } },
            { key: 'topic' },
          );
          return `Write about ${String(answer.content?.topic)}.`;
        },
      }),
    ],
  });
  const listener = await server.listen({ port: 0 });
  url = listener.url;
  everything = createEverythingServer();
  const other = await everything.listen({ port: 0 });
  everythingUrl = other.url;
  closers = [() => server.close(), () => everything.close()];
});

afterAll(async () => {
  for (const close of closers) await close();
});

const elicitOnly = { capabilities: { elicitation: { form: {} } }, tasks: false } as const;

describe('questions named by the handler', () => {
  test('travel under their key, and the retry with the sealed state completes the call', async () => {
    const call = modernClient(url, elicitOnly);
    const first = await call('tools/call', { name: 'named', arguments: {} });
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    expect(Object.keys(first.result!.inputRequests)).toEqual(['who']);
    expect(first.result!.inputRequests.who).toMatchObject({ method: 'elicitation/create' });
    const second = await call('tools/call', {
      name: 'named',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(second.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada' }]);
  });

  test('an answer of the wrong shape for a named key is refused with -32602', async () => {
    const call = modernClient(url, elicitOnly);
    const first = await call('tools/call', { name: 'named', arguments: {} });
    const bad = await call('tools/call', {
      name: 'named',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { who: { roots: [] } },
    });
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toContain('inputResponses["who"]');
  });

  test('two questions under one key are the handler’s mistake: the call fails (the reason goes to the server log)', async () => {
    const call = modernClient(url, elicitOnly);
    const first = await call('tools/call', { name: 'twice', arguments: {} });
    expect(Object.keys(first.result!.inputRequests)).toEqual(['same']);
    const retry = await call('tools/call', {
      name: 'twice',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { same: { action: 'accept', content: { name: 'x' } } },
    });
    expect(retry.result).toMatchObject({ isError: true });
    expect(retry.result!.content[0].text).toContain('internal error');
  });

  test('a prompt names its question too', async () => {
    const call = modernClient(url, elicitOnly);
    const first = await call('prompts/get', { name: 'brief', arguments: {} });
    expect(Object.keys(first.result!.inputRequests)).toEqual(['topic']);
    const second = await call('prompts/get', {
      name: 'brief',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { topic: { action: 'accept', content: { topic: 'tides' } } },
    });
    expect(JSON.stringify(second.result?.messages)).toContain('Write about tides.');
  });
});

describe('several questions at once', () => {
  test('go out in one input_required round', async () => {
    const call = modernClient(url, { capabilities: { elicitation: { form: {} }, sampling: {} }, tasks: false });
    const first = await call('tools/call', { name: 'together', arguments: {} });
    expect(Object.keys(first.result!.inputRequests).sort()).toEqual(['sample-0', 'who']);
    const second = await call('tools/call', {
      name: 'together',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } }, 'sample-0': SAMPLED },
    });
    expect(second.result?.content?.[0]?.text).toBe('Ada / {"type":"text","text":"Bonjour"}');
  });

  test('the SDK v2 client answers elicitation, sampling and roots asked together and gets the result', async () => {
    const client = new Client(
      { name: 'mrtr-interop', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    let asked = 0;
    client.setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'accept', content: { name: 'Grace' } };
    });
    client.setRequestHandler('sampling/createMessage', async () => {
      asked++;
      return SAMPLED as never;
    });
    client.setRequestHandler('roots/list', async () => {
      asked++;
      return { roots: [{ uri: 'file:///tmp/a' }, { uri: 'file:///tmp/b' }] };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(everythingUrl)));
    try {
      const result = await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Name: Grace; Greeting: Bonjour; Roots: 2' }]);
      expect(asked).toBe(3);
    } finally {
      await client.close();
    }
  });
});

describe('answers sent before they were asked (no requestState)', () => {
  test('count for the key the handler asks, extra keys are ignored and not sealed into a later state', async () => {
    const call = modernClient(url, { capabilities: { elicitation: { form: {} }, sampling: {} }, tasks: false });
    const done = await call('tools/call', {
      name: 'named',
      arguments: {},
      inputResponses: { who: { action: 'accept', content: { name: 'Lin' } }, stray: { action: 'accept' } },
    });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Hello, Lin' }]);

    // Part answered: the answered question is kept in the sealed state, the other is asked; the stray key is gone.
    const part = await call('tools/call', {
      name: 'together',
      arguments: {},
      inputResponses: { who: { action: 'accept', content: { name: 'Lin' } }, stray: { action: 'accept' } },
    });
    expect(Object.keys(part.result!.inputRequests)).toEqual(['sample-0']);
    const state = JSON.parse(Buffer.from(String(part.result!.requestState).split('.')[1]!, 'base64url').toString());
    expect(Object.keys(state.a)).toEqual(['who']);
    const end = await call('tools/call', {
      name: 'together',
      arguments: {},
      requestState: part.result!.requestState,
      inputResponses: { 'sample-0': SAMPLED },
    });
    expect(end.result?.content?.[0]?.text).toBe('Lin / {"type":"text","text":"Bonjour"}');
  });

  test('one of the wrong shape is not taken: the question is asked', async () => {
    const call = modernClient(url, elicitOnly);
    const asked = await call('tools/call', { name: 'named', arguments: {}, inputResponses: { who: { nope: 1 } } });
    expect(asked.result).toMatchObject({ resultType: 'input_required' });
    expect(Object.keys(asked.result!.inputRequests)).toEqual(['who']);
  });
});

describe('ctx.clientCapabilities', () => {
  test('2026-07-28: what this request declared in its _meta', async () => {
    const call = modernClient(url, { capabilities: { sampling: {}, roots: {} }, tasks: false });
    const answer = await call('tools/call', { name: 'capabilities', arguments: {} });
    expect(answer.result?.content).toEqual([{ type: 'text', text: 'roots,sampling' }]);
  });

  test('2025: what the client declared at initialize, so a tool asks only what it can answer (SDK v1)', async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
    let sampled = 0;
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      sampled++;
      return SAMPLED as never;
    });
    await client.connect(new HttpTransportV1(new URL(everythingUrl)));
    try {
      const mine = await client.callTool({ name: 'test_input_required_result_capabilities', arguments: {} });
      expect(mine.content).toEqual([{ type: 'text', text: 'model Bonjour' }]);
      expect(sampled).toBe(1);
    } finally {
      await client.close();
    }
  });
});
