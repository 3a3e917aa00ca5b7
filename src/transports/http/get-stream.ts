/**
 * What a GET opens (spec 2025-03-26+, transports, "Listening for Messages
 * from the Server" and "Resumability and Redelivery"): the session's
 * standalone stream, or, with `Last-Event-ID`, the continuation of the stream
 * that event belongs to.
 */
import type { ServerLogger } from '../../util/logger.js';
import type { EventStore } from './event-store.js';
import type { Exchange } from './exchange.js';
import { refuse, sseHeaders, TRANSPORT_ERROR } from './responses.js';
import type { Session } from './sessions.js';
import { sseFrame } from './sse-stream.js';

/**
 * Carry the session's standalone stream (list_changed and other
 * notifications that belong to no request) on this GET. One at a time: a
 * second GET gets 409.
 *
 * @example
 * ```ts
 * openStandalone(exchange, session);
 * ```
 */
export function openStandalone(exchange: Exchange, session: Session): void {
  const stream = session.standalone;
  if (stream.connected) {
    refuse(exchange, 409, TRANSPORT_ERROR, 'Conflict: this session already has an open GET stream.');
    return;
  }
  stream.attach(exchange.stream(sseHeaders(session.id)));
  // Priming events are a 2025-11-25 addition (SEP-1699); older clients may choke on empty data.
  if (session.peer.protocolVersion >= '2025-11-25') stream.prime();
}

/**
 * `Last-Event-ID`: replay what the client missed on that stream (only a
 * stream of its own session), then carry the rest of it on this connection;
 * a stream that already finished is replayed and the response ends. An id the
 * store does not know opens a fresh standalone stream instead.
 *
 * @example
 * ```ts
 * await resumeStream({ exchange, session, lastEventId: '…', store, logger });
 * ```
 */
export async function resumeStream(options: {
  exchange: Exchange;
  session: Session;
  lastEventId: string;
  store: EventStore;
  logger: ServerLogger;
}): Promise<void> {
  const { exchange, session, lastEventId, store, logger } = options;
  const frames: string[] = [];
  let lastSeen = lastEventId;
  const replay = store.replayEventsAfter(lastEventId, (id, data) => {
    frames.push(sseFrame(id, data));
    lastSeen = id;
  });
  const asynchronous = replay instanceof Promise;
  const streamId = asynchronous ? await replay : replay;
  if (streamId === undefined || !session.owns(streamId)) {
    logger.debug('Last-Event-ID not found; opening a fresh GET stream', { session: session.id });
    openStandalone(exchange, session);
    return;
  }
  const live = streamId === session.standalone.id ? session.standalone : session.streams.get(streamId);
  if (live?.connected) {
    refuse(exchange, 409, TRANSPORT_ERROR, 'Conflict: that stream is already connected.');
    return;
  }
  const connection = exchange.stream(sseHeaders(session.id));
  for (const frame of frames) connection.write(frame);
  if (live === undefined || live.ended) {
    // The stream finished: its answer was among the replayed events.
    connection.end();
    return;
  }
  if (!asynchronous) {
    // A synchronous store: nothing can have happened between the replay and now.
    live.attach(connection);
    return;
  }
  // An asynchronous store: fetch what was stored during the replay; live events wait until then.
  live.attachReplaying(connection);
  const replayed = new Set<string>();
  await store.replayEventsAfter(lastSeen, (id, data) => {
    connection.write(sseFrame(id, data));
    replayed.add(id);
  });
  live.finishReplay(replayed);
}

/**
 * A GET on a session: resume from `Last-Event-ID` when the client sends one and
 * events are kept (503 when they live in a shared store that is unreachable),
 * otherwise open the session's standalone stream.
 */
export async function serveGetStream(
  exchange: Exchange,
  session: Session,
  options: { store: EventStore | undefined; logger: ServerLogger },
): Promise<void> {
  const { store, logger } = options;
  const lastEventId = exchange.header('last-event-id');
  if (lastEventId === undefined || store === undefined) {
    openStandalone(exchange, session);
    return;
  }
  try {
    await resumeStream({ exchange, session, lastEventId, store, logger });
  } catch (error) {
    if (exchange.responded) throw error;
    // The missed events live in the shared store: say so rather than open a stream without them.
    logger.warn('a stream could not be resumed (the event store is unreachable)', { session: session.id, error });
    refuse(
      exchange,
      503,
      TRANSPORT_ERROR,
      'Service unavailable: the events of this stream are in the shared store (Redis), which is unreachable, so the stream cannot be resumed now; try again shortly.',
      ['retry-after', '5'],
    );
  }
}
