import { describe, expect, test } from 'vitest';
import { silentLogger } from '../../util/logger.js';
import type { EventStore } from './event-store.js';
import { InMemoryEventStore } from './event-store.js';
import { type SseConnection, SseStream, sseFrame } from './sse-stream.js';

/** A connection that records what was written. */
function recorder(): SseConnection & { written: string[]; ended: boolean; close(): void } {
  const listeners: Array<() => void> = [];
  const connection = {
    written: [] as string[],
    ended: false,
    closed: false,
    write(chunk: string) {
      if (!connection.closed) connection.written.push(chunk);
    },
    end() {
      connection.ended = true;
      connection.close();
    },
    close() {
      if (connection.closed) return;
      connection.closed = true;
      for (const l of listeners) l();
    },
    onClose(listener: () => void) {
      listeners.push(listener);
    },
  };
  return connection;
}

const options = (store: EventStore | undefined) => ({ store, keepAliveMs: 0, retryMs: 500, logger: silentLogger });

describe('sseFrame', () => {
  test('formats id, retry and data; a multi-line payload gets one data field per line', () => {
    expect(sseFrame('7', '{"a":1}')).toBe('id: 7\ndata: {"a":1}\n\n');
    expect(sseFrame(undefined, 'x')).toBe('data: x\n\n');
    expect(sseFrame('1', '', 1000)).toBe('id: 1\nretry: 1000\ndata: \n\n');
    expect(sseFrame(undefined, 'a\nb\r\nc')).toBe('data: a\ndata: b\ndata: c\n\n');
  });
});

describe('SseStream', () => {
  test('without a store, events carry no id and the stream cannot be resumed or disconnected', () => {
    const stream = new SseStream('s', options(undefined));
    const connection = recorder();
    stream.attach(connection);
    stream.prime();
    stream.send('{"n":1}');
    expect(connection.written).toEqual(['data: {"n":1}\n\n']);
    expect(stream.resumable).toBe(false);
    expect(stream.disconnect()).toBe(false);
    stream.end();
    expect(connection.ended).toBe(true);
  });

  test('with a store, a priming event makes the stream resumable; disconnect keeps it going', () => {
    const store = new InMemoryEventStore();
    const stream = new SseStream('s', options(store));
    const first = recorder();
    stream.attach(first);
    stream.prime();
    expect(first.written[0]).toMatch(/^id: s_\d+\nretry: 500\ndata: \n\n$/);
    expect(stream.disconnect()).toBe(true);
    expect(first.ended).toBe(true);
    expect(stream.connected).toBe(false);
    stream.send('{"missed":true}');
    const second = recorder();
    stream.attach(second);
    stream.send('{"live":true}');
    stream.end();
    expect(second.written).toEqual([expect.stringContaining('{"live":true}')]);
    expect(second.ended).toBe(true);
    const replayed: string[] = [];
    store.replayEventsAfter(first.written[0]!.split('\n')[0]!.slice(4), (_id, data) => void replayed.push(data));
    expect(replayed).toEqual(['{"missed":true}', '{"live":true}']);
  });

  test('an asynchronous store keeps events in the order they were sent, and end() waits for them', async () => {
    let seq = 0;
    const slow: EventStore = {
      storeEvent: (_streamId, _data) => {
        const id = `e${++seq}`;
        return new Promise((resolve) => setTimeout(() => resolve(id), 10 - seq));
      },
      replayEventsAfter: () => undefined,
    };
    const stream = new SseStream('s', options(slow));
    const connection = recorder();
    stream.attach(connection);
    for (const n of [1, 2, 3]) stream.send(String(n));
    stream.end();
    expect(connection.ended).toBe(false);
    await expect.poll(() => connection.ended).toBe(true);
    expect(connection.written).toEqual(['id: e1\ndata: 1\n\n', 'id: e2\ndata: 2\n\n', 'id: e3\ndata: 3\n\n']);
    expect(connection.ended).toBe(true);
  });

  test('while replaying, live events wait and those already replayed are not sent twice', () => {
    const stream = new SseStream('s', options(new InMemoryEventStore()));
    const connection = recorder();
    stream.attachReplaying(connection);
    stream.send('live-1');
    stream.send('live-2');
    expect(connection.written).toEqual([]);
    stream.finishReplay(new Set(['s_1']));
    expect(connection.written).toEqual(['id: s_2\ndata: live-2\n\n']);
  });

  test('a store that throws does not lose the event: it goes out without an id', () => {
    const broken: EventStore = {
      storeEvent: () => {
        throw new Error('disk full');
      },
      replayEventsAfter: () => undefined,
    };
    const stream = new SseStream('s', options(broken));
    const connection = recorder();
    stream.attach(connection);
    stream.send('{"x":1}');
    expect(connection.written).toEqual(['data: {"x":1}\n\n']);
  });
});
