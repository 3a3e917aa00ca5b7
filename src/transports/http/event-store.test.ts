import { describe, expect, test } from 'vitest';
import { InMemoryEventStore } from './event-store.js';

function replay(store: InMemoryEventStore, lastEventId: string) {
  const seen: Array<[string, string]> = [];
  const streamId = store.replayEventsAfter(lastEventId, (id, data) => void seen.push([id, data]));
  return { streamId, seen };
}

describe('InMemoryEventStore', () => {
  test('replays only the events of the same stream written after the given id, in order', () => {
    const store = new InMemoryEventStore();
    const a1 = store.storeEvent('a', '1');
    store.storeEvent('b', 'other stream');
    const a2 = store.storeEvent('a', '2');
    const a3 = store.storeEvent('a', '3');
    expect(replay(store, a1)).toEqual({
      streamId: 'a',
      seen: [
        [a2, '2'],
        [a3, '3'],
      ],
    });
    expect(replay(store, a3)).toEqual({ streamId: 'a', seen: [] });
  });

  test('priming events (empty data) are never replayed', () => {
    const store = new InMemoryEventStore();
    const priming = store.storeEvent('a', '');
    const later = store.storeEvent('a', '{"x":1}');
    store.storeEvent('a', '');
    expect(replay(store, priming).seen).toEqual([[later, '{"x":1}']]);
  });

  test('an unknown id replays nothing and says so with undefined', () => {
    const store = new InMemoryEventStore();
    store.storeEvent('a', '1');
    expect(replay(store, 'never-issued')).toEqual({ streamId: undefined, seen: [] });
  });

  test('event ids are unique across streams and fit on an SSE id line', () => {
    const store = new InMemoryEventStore();
    const ids = new Set<string>();
    for (let i = 0; i < 100; i++) ids.add(store.storeEvent(i % 2 ? 'x' : 'y', String(i)));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]+$/);
  });

  test('maxEvents evicts the oldest events first; an evicted id can no longer be resumed from', () => {
    const store = new InMemoryEventStore({ maxEvents: 3 });
    const first = store.storeEvent('a', '1');
    const second = store.storeEvent('b', '2');
    store.storeEvent('a', '3');
    store.storeEvent('a', '4');
    expect(store.size).toBe(3);
    expect(replay(store, first).streamId).toBeUndefined();
    expect(replay(store, second)).toEqual({ streamId: 'b', seen: [] });
  });

  test('maxBytes bounds the data kept', () => {
    const store = new InMemoryEventStore({ maxBytes: 10 });
    const first = store.storeEvent('a', '123456');
    const second = store.storeEvent('a', '789012');
    expect(store.size).toBe(1);
    expect(replay(store, first).streamId).toBeUndefined();
    expect(replay(store, second).streamId).toBe('a');
  });

  test('an asynchronous sink still receives events in order', async () => {
    const store = new InMemoryEventStore();
    const start = store.storeEvent('a', '0');
    for (let i = 1; i <= 5; i++) store.storeEvent('a', String(i));
    const seen: string[] = [];
    const result = store.replayEventsAfter(start, async (_id, data) => {
      await new Promise((resolve) => setTimeout(resolve, 6 - Number(data)));
      seen.push(data);
    });
    expect(await result).toBe('a');
    expect(seen).toEqual(['1', '2', '3', '4', '5']);
  });
});
