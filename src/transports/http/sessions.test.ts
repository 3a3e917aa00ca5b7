import { describe, expect, test } from 'vitest';
import { createDispatcher } from '../../engine/dispatcher.js';
import { ToolRegistry } from '../../registry/registry.js';
import { silentLogger } from '../../util/logger.js';
import { Session, SessionStore, StreamChannel } from './sessions.js';
import { type SseConnection, SseStream } from './sse-stream.js';

const dispatcher = createDispatcher({
  serverInfo: { name: 'sessions-test', version: '1.0.0' },
  tools: new ToolRegistry(),
  logger: silentLogger,
});
const streamOptions = { store: undefined, keepAliveMs: 0, retryMs: undefined, logger: silentLogger };

function session(id: string): Session {
  const standalone = new SseStream(`${id}.0`, streamOptions);
  return new Session(id, dispatcher.createPeer({ sessionId: id, channel: new StreamChannel(standalone) }), standalone);
}

function openConnection(): SseConnection {
  return { closed: false, write() {}, end() {}, onClose() {} };
}

describe('SessionStore', () => {
  test('sweep ends sessions idle past idleMs and closes their peers; busy ones stay', () => {
    const expired: string[] = [];
    const store = new SessionStore({ maxSessions: 10, idleMs: 1000, onExpire: (s) => expired.push(s.id) });
    const idle = session('idle');
    const listening = session('listening');
    listening.standalone.attach(openConnection());
    store.add(idle);
    store.add(listening);
    store.sweep(Date.now() + 500);
    expect(expired).toEqual([]);
    store.sweep(Date.now() + 5000);
    expect(expired).toEqual(['idle']);
    expect(store.get('idle')).toBeUndefined();
    expect(store.get('listening')).toBe(listening);
    expect(idle.peer.closed).toBe(true);
    expect(listening.peer.closed).toBe(false);
    store.closeAll(new Error('done'));
    expect(listening.peer.closed).toBe(true);
  });

  test('full says when maxSessions is reached; delete closes the session', () => {
    const store = new SessionStore({ maxSessions: 1, idleMs: 0 });
    expect(store.full).toBe(false);
    const only = session('only');
    store.add(only);
    expect(store.full).toBe(true);
    expect(store.delete('only', new Error('bye'))).toBe(true);
    expect(store.delete('only', new Error('bye'))).toBe(false);
    expect(only.peer.closed).toBe(true);
    expect(only.standalone.ended).toBe(true);
  });

  test('a session owns only stream ids with its own prefix', () => {
    const s = session('abc');
    expect(s.owns(s.nextStreamId())).toBe(true);
    expect(s.owns('abc.0')).toBe(true);
    expect(s.owns('abcd.1')).toBe(false);
    expect(s.owns('abc')).toBe(false);
    expect(s.owns('other.1')).toBe(false);
    s.close(new Error('done'));
  });
});

describe('StreamChannel', () => {
  test('is open while connected, closed before and after, and never after the stream ended', () => {
    const stream = new SseStream('s.0', streamOptions);
    const channel = new StreamChannel(stream);
    expect(channel.open).toBe(false);
    const written: string[] = [];
    stream.attach({ closed: false, write: (c) => void written.push(c), end() {}, onClose() {} });
    expect(channel.open).toBe(true);
    channel.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(written).toEqual(['data: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n']);
    stream.end();
    expect(channel.open).toBe(false);
  });
});
