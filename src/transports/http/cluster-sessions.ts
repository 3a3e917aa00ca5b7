/**
 * Sessions shared by several instances of one endpoint (a cluster link over
 * Redis): a session opened on one instance is rebuilt on another from its shared
 * record, kept alive there, written back when the store returns after an outage,
 * and answers to server→client requests reach the instance whose call asked.
 */
import type { Dispatcher } from '../../engine/dispatcher.js';
import { isSupportedVersion } from '../../engine/era.js';
import type { ServerLogger } from '../../util/logger.js';
import type { ClusterLink, ClusterMessage, SessionRecord } from './cluster-link.js';
import type { Exchange } from './exchange.js';
import type { PostChannelConfig } from './post-channel.js';
import { refuse, TRANSPORT_ERROR } from './responses.js';
import type { Session, SessionStore } from './sessions.js';
import { StreamChannel } from './sessions.js';
import { SseStream } from './sse-stream.js';

const CLOSED_CHANNEL = Object.freeze({ open: false, send() {} });

/** What a {@link ClusterSessions} works with: the transport's own session table and helpers. */
export interface ClusterSessionsOptions {
  cluster: ClusterLink;
  sessions: SessionStore;
  /** Who opened each session (with an authorizer). */
  owners: WeakMap<Session, string>;
  dispatcher: Dispatcher;
  logger: ServerLogger;
  channels: PostChannelConfig;
  /** How often a session's shared record is kept alive, at most (ms). */
  touchEveryMs: number;
  /** A new local session object under this id. */
  newSession: (id: string) => Session;
}

/**
 * The cluster side of one HTTP transport.
 *
 * @example
 * ```ts
 * const shared = new ClusterSessions({ cluster, sessions, owners, dispatcher, logger, channels, touchEveryMs, newSession });
 * const session = sessions.get(id) ?? (await shared.restore(exchange, id));
 * ```
 */
export class ClusterSessions {
  readonly #o: ClusterSessionsOptions;
  /** Sessions whose shared record could not be written (the store was down): written when it answers again. */
  readonly #unsaved = new Set<string>();
  readonly #stop: Array<(() => void) | undefined>;

  constructor(options: ClusterSessionsOptions) {
    this.#o = options;
    this.#stop = [
      options.cluster.onMessage((message) => this.#onMessage(message)),
      options.cluster.onStoreRestored?.(() => void this.#writeBack()),
    ];
  }

  get link(): ClusterLink {
    return this.#o.cluster;
  }

  /**
   * A session another instance opened: rebuild it here from its shared
   * record. Undefined when there is no such session; false once refused
   * (503, the shared store is unreachable).
   */
  async restore(exchange: Exchange, id: string): Promise<Session | undefined | false> {
    const { cluster, sessions, logger, owners } = this.#o;
    let record: SessionRecord | undefined;
    try {
      record = await cluster.loadSession(id);
    } catch (error) {
      logger.warn('a session could not be looked up (Redis unreachable)', { session: id, error });
      refuse(
        exchange,
        503,
        TRANSPORT_ERROR,
        'Service unavailable: the shared session store (Redis) is unreachable, so this session cannot be served here; try again shortly.',
        ['retry-after', '5'],
      );
      return false;
    }
    if (record === undefined || record.id !== id) return undefined;
    // Another request of the same session may have restored it meanwhile.
    const raced = sessions.get(id);
    if (raced !== undefined) return raced;
    if (sessions.full) {
      refuse(exchange, 503, TRANSPORT_ERROR, 'Service unavailable: too many open sessions; try again later.', [
        'retry-after',
        '30',
      ]);
      return false;
    }
    const session = this.#o.newSession(id);
    const peer = session.peer;
    peer.protocolVersion = isSupportedVersion(record.protocolVersion) ? record.protocolVersion : peer.protocolVersion;
    peer.negotiated = true;
    peer.initialized = true;
    peer.clientInfo = record.clientInfo;
    peer.clientCapabilities = record.clientCapabilities ?? {};
    peer.logLevel = record.logLevel;
    if (record.principal !== undefined) owners.set(session, record.principal);
    sessions.add(session);
    return session;
  }

  /** Keep the session's shared record alive, at most once per `touchEveryMs`. */
  touch(session: Session, now: number): void {
    if (now - session.touchedAt <= this.#o.touchEveryMs) return;
    session.touchedAt = now;
    this.#o.cluster.touchSession(session.id).catch((error: unknown) => {
      this.#o.logger.warn('the shared session record could not be kept alive (Redis unreachable)', {
        session: session.id,
        error,
      });
    });
  }

  /** Write the session's shared record; false when the store is unreachable (then it is written on its return). */
  async share(
    session: Session,
    principal: string | undefined,
    options: { onlyIfAbsent?: boolean; quiet?: boolean } = {},
  ): Promise<boolean> {
    const peer = session.peer;
    const record: SessionRecord = {
      id: session.id,
      protocolVersion: peer.protocolVersion,
      clientCapabilities: peer.clientCapabilities,
    };
    if (peer.clientInfo !== undefined) record.clientInfo = peer.clientInfo;
    if (peer.logLevel !== undefined) record.logLevel = peer.logLevel;
    if (principal !== undefined) record.principal = principal;
    try {
      await this.#o.cluster.saveSession(record, options.onlyIfAbsent ? { onlyIfAbsent: true } : undefined);
      session.touchedAt = Date.now();
      this.#unsaved.delete(session.id);
      return true;
    } catch (error) {
      this.#unsaved.add(session.id);
      if (!options.quiet) {
        this.#o.logger.warn('the shared session record could not be written (Redis unreachable)', {
          session: session.id,
          error,
        });
      }
      return false;
    }
  }

  /**
   * The client ended the session here: its shared record goes, and the other
   * instances end their copies.
   */
  async ended(session: Session): Promise<void> {
    const { cluster, logger } = this.#o;
    this.#unsaved.delete(session.id);
    try {
      await cluster.removeSession(session.id);
    } catch (error) {
      // Ended here; elsewhere it ends with the message below, and its record expires with the idle time.
      logger.warn('the shared session record could not be removed (Redis unreachable)', { session: session.id, error });
    }
    cluster.publish({ type: 'session-ended', session: session.id, from: cluster.instanceId });
  }

  /** The client listens on this instance now: the others stop writing the session's standalone events. */
  claimStream(session: Session): void {
    this.#o.cluster.publish({ type: 'stream-claimed', session: session.id, from: this.#o.cluster.instanceId });
  }

  /**
   * Answers to server→client requests this process did not make (the call
   * waiting for them runs on another instance): send them there.
   */
  forwardAnswers(session: Session, message: unknown): void {
    const cluster = this.#o.cluster;
    for (const item of Array.isArray(message) ? message : [message]) {
      if (typeof item !== 'object' || item === null || 'method' in item || !('id' in item)) continue;
      const id = (item as { id: unknown }).id;
      if (typeof id === 'string' && session.peer.pending.has(id)) continue;
      cluster.publish({ type: 'response', session: session.id, body: item, from: cluster.instanceId });
    }
  }

  close(): void {
    for (const stop of this.#stop) stop?.();
  }

  /**
   * The store answers again: write the records of sessions opened
   * or changed meanwhile, and put back those of the other live sessions if
   * the store came back without them (a Redis restarted empty), so any
   * instance can serve them again. A record already there is left alone.
   */
  async #writeBack(): Promise<void> {
    const sessions = this.#o.sessions.list();
    const live = new Set(sessions.map((s) => s.id));
    for (const id of [...this.#unsaved]) if (!live.has(id)) this.#unsaved.delete(id);
    const pending = this.#unsaved.size;
    const results = await Promise.all(
      sessions.map((session) =>
        this.share(session, this.#o.owners.get(session), { onlyIfAbsent: !this.#unsaved.has(session.id), quiet: true }),
      ),
    );
    const failed = results.filter((ok) => !ok).length;
    this.#o.logger.info('session records written back to the shared store', {
      sessions: sessions.length,
      opened: pending,
      ...(failed > 0 ? { failed } : {}),
    });
  }

  #onMessage(message: ClusterMessage): void {
    const session = this.#o.sessions.get(message.session);
    if (session === undefined) return;
    switch (message.type) {
      case 'response': {
        const body = message.body as { id?: unknown };
        // Only the instance whose call asked settles it; the others have nothing pending under that id.
        if (typeof body?.id !== 'string' || !session.peer.pending.has(body.id)) return;
        const channel = session.peer.channel ?? CLOSED_CHANNEL;
        void this.#o.dispatcher.handle(body, { peer: session.peer, channel });
        return;
      }
      case 'session-ended':
        this.#o.sessions.delete(session.id, new Error('The client ended the session.'));
        return;
      case 'stream-claimed': {
        const fresh = new SseStream(`${session.id}.0`, this.#o.channels.sessionStreams);
        session.releaseStandalone(fresh, new StreamChannel(fresh));
        return;
      }
    }
  }
}
