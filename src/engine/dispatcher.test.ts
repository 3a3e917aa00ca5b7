import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ToolRegistry } from '../registry/registry.js';
import { defineTool } from '../tool/define.js';
import { silentLogger } from '../util/logger.js';
import type { Channel, JsonRpcMessage } from './channel.js';
import { createDispatcher } from './dispatcher.js';

function setup() {
  const signals: AbortSignal[] = [];
  const hooked: Array<{ reason: unknown; late: unknown[]; unhooked: boolean }> = [];
  const registry = new ToolRegistry({
    env: {},
    tools: [
      defineTool({
        name: 'hooked',
        description: 'Wait until aborted, listening through ctx.onAbort.',
        effect: 'read',
        world: 'closed',
        handler: (_args, ctx) =>
          new Promise((_, reject) => {
            const entry = { reason: undefined as unknown, late: [] as unknown[], unhooked: false };
            hooked.push(entry);
            const stop = ctx.onAbort(() => {
              entry.unhooked = true;
            });
            stop();
            ctx.onAbort((reason) => {
              entry.reason = reason;
              // Listening after the abort hears it at once.
              ctx.onAbort((again) => entry.late.push(again));
              reject(reason);
            });
          }),
      }),
      defineTool({
        name: 'wait',
        description: 'Wait until aborted.',
        effect: 'read',
        world: 'closed',
        handler: (_args, ctx) => {
          signals.push(ctx.signal);
          return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
        },
      }),
      defineTool({
        name: 'ask',
        description: 'Ask the user.',
        effect: 'read',
        world: 'closed',
        input: z.object({}),
        handler: async (_args, ctx) => ((await ctx.confirm('ok?')) ? 'yes' : 'no'),
      }),
    ],
  });
  const dispatcher = createDispatcher({
    serverInfo: { name: 't', version: '1' },
    tools: registry,
    logger: silentLogger,
  });
  const sent: JsonRpcMessage[] = [];
  const channel: Channel = { open: true, send: (m) => void sent.push(m) };
  return { dispatcher, registry, signals, hooked, sent, channel };
}

const call = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});

describe('Dispatcher', () => {
  test('drain refuses new calls and aborts stragglers after its timeout', async () => {
    const { dispatcher, signals, channel } = setup();
    const peer = dispatcher.createPeer({ channel });
    const running = dispatcher.handle(call(1, 'wait'), { peer, channel });
    expect(dispatcher.inFlight).toBe(1);
    const drained = dispatcher.drain({ timeoutMs: 20 });
    expect(await dispatcher.handle(call(2, 'wait'), { peer, channel })).toMatchObject({
      id: 2,
      error: { code: -32000 },
    });
    await drained;
    expect(signals[0]?.aborted).toBe(true);
    expect(await running).toMatchObject({ id: 1, result: { isError: true } });
    expect(dispatcher.inFlight).toBe(0);
  });

  test('ctx.onAbort hears a cancellation once, at once when listening late, and not after unhooking', async () => {
    const { dispatcher, hooked, channel } = setup();
    const peer = dispatcher.createPeer({ channel });
    const running = dispatcher.handle(call(1, 'hooked'), { peer, channel });
    await expect.poll(() => hooked.length).toBe(1);
    await dispatcher.handle(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user stop' } },
      { peer, channel },
    );
    await running;
    expect(hooked[0]!.reason).toBeDefined();
    expect(hooked[0]!.late).toEqual([hooked[0]!.reason]);
    expect(hooked[0]!.unhooked).toBe(false);
  });

  test('a request id already in flight on the same peer is refused', async () => {
    const { dispatcher, channel } = setup();
    const peer = dispatcher.createPeer({ channel });
    void dispatcher.handle(call(1, 'wait'), { peer, channel });
    expect(await dispatcher.handle(call(1, 'wait'), { peer, channel })).toMatchObject({ error: { code: -32600 } });
    peer.close();
  });

  test('closing a peer aborts its calls and rejects its pending elicitation', async () => {
    const { dispatcher, signals, sent, channel } = setup();
    const peer = dispatcher.createPeer({ channel });
    await dispatcher.handle(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} } },
      },
      { peer, channel },
    );
    const asking = dispatcher.handle(call(1, 'ask'), { peer, channel });
    const waiting = dispatcher.handle(call(2, 'wait'), { peer, channel });
    await expect.poll(() => sent.some((m) => 'method' in m && m.method === 'elicitation/create')).toBe(true);
    peer.close();
    expect(signals[0]?.aborted).toBe(true);
    expect(await asking).toMatchObject({ id: 1, result: { isError: true } });
    expect(await waiting).toMatchObject({ id: 2, result: { isError: true } });
    expect(dispatcher.peers.has(peer)).toBe(false);
  });

  test('an answer to a server request is accepted only from the peer that was asked (or between stateless peers)', async () => {
    const { dispatcher, sent, channel } = setup();
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} } },
    };
    const asked = dispatcher.createPeer({ channel });
    const other = dispatcher.createPeer({ channel });
    await dispatcher.handle(init, { peer: asked, channel });
    const asking = dispatcher.handle(call(1, 'ask'), { peer: asked, channel });
    await expect.poll(() => sent.some((m) => 'method' in m && m.method === 'elicitation/create')).toBe(true);
    const request = sent.find((m) => 'method' in m && m.method === 'elicitation/create') as { id: string };
    const answer = { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { confirm: true } } };
    await dispatcher.handle(answer, { peer: other, channel }); // ignored: not the peer that was asked
    await dispatcher.handle(answer, { peer: asked, channel });
    expect(await asking).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'yes' }] } });

    sent.length = 0;
    const first = dispatcher.createPeer({ channel, stateless: true, protocolVersion: '2025-11-25' });
    first.clientCapabilities = { elicitation: {} };
    const second = dispatcher.createPeer({ channel, stateless: true, protocolVersion: '2025-11-25' });
    const statelessAsking = dispatcher.handle(call(2, 'ask'), { peer: first, channel });
    await expect.poll(() => sent.some((m) => 'method' in m && m.method === 'elicitation/create')).toBe(true);
    const again = sent.find((m) => 'method' in m && m.method === 'elicitation/create') as { id: string };
    await dispatcher.handle({ jsonrpc: '2.0', id: again.id, result: { action: 'decline' } }, { peer: second, channel });
    expect(await statelessAsking).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'no' }] } });
  });

  test('list_changed goes only to peers that negotiated and have a standalone channel', async () => {
    const { dispatcher, registry } = setup();
    const seen: string[] = [];
    const open = (name: string): Channel => ({
      open: true,
      send: (m) => void seen.push(`${name}:${(m as { method: string }).method}`),
    });
    const ready = dispatcher.createPeer({ channel: open('ready') });
    dispatcher.createPeer({ channel: open('fresh') });
    await dispatcher.handle(
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18' } },
      { peer: ready, channel: open('ready') },
    );
    registry.disable({ names: ['ask'] });
    expect(seen).toEqual(['ready:notifications/tools/list_changed']);
  });
});
