/**
 * What the HTTP transport needs to serve one session from several processes.
 * The transport keeps a live `Session` per process as a cache;
 * the link holds the record every instance can rebuild it from, and carries
 * the few messages that must reach the instance that owns something:
 *
 * - a client's answer to a server→client request (elicitation, sampling,
 *   roots) lands on whichever instance the balancer picked; it is forwarded
 *   to the instance whose call is waiting;
 * - a session ended with DELETE on one instance ends everywhere;
 * - a GET stream taken up on one instance stops the others writing that
 *   session's standalone events, so a resumed stream has no duplicates.
 *
 * `createRedisCluster()` (src/stores) implements it on Redis. The transport
 * never imports Redis.
 */
import type { ClientCapabilities, ClientInfo } from '../../engine/peer.js';
import type { LogLevel } from '../../tool/types.js';
import type { EventStore } from './event-store.js';

/** What a session is, as every instance can rebuild it. */
export interface SessionRecord {
  id: string;
  protocolVersion: string;
  clientInfo?: ClientInfo;
  clientCapabilities: ClientCapabilities;
  logLevel?: LogLevel;
  /** Who opened it, when the server has authorization (sessions are bound to their principal). */
  principal?: string;
}

/** A message between instances. */
export type ClusterMessage =
  | { type: 'response'; session: string; body: unknown; from: string }
  | { type: 'session-ended'; session: string; from: string }
  | { type: 'stream-claimed'; session: string; from: string };

/** The shared state the HTTP transport uses (see the file comment). */
export interface ClusterLink {
  /** This instance's id (random per process). */
  readonly instanceId: string;
  /** The shared event store (resumption across instances). */
  readonly eventStore: EventStore;
  /**
   * Write a session's record; `onlyIfAbsent` leaves a record already there
   * untouched (rewriting what a store that came back empty forgot).
   * Rejects when the store is unreachable.
   */
  saveSession(record: SessionRecord, options?: { onlyIfAbsent?: boolean }): Promise<void>;
  /** The record, or undefined when the session ended, expired or never existed. */
  loadSession(id: string): Promise<SessionRecord | undefined>;
  /** Keep the session alive (its record expires after the idle time otherwise). */
  touchSession(id: string): Promise<void>;
  removeSession(id: string): Promise<void>;
  /** Tell every other instance. Never throws (a lost message is logged). */
  publish(message: ClusterMessage): void;
  /** Listen to other instances' messages; returns a function that stops listening. */
  onMessage(listener: (message: ClusterMessage) => void): () => void;
  /**
   * Told each time the shared store answers again after an outage,
   * so records kept only here meanwhile are written. Returns a function that stops it.
   */
  onStoreRestored?(listener: () => void): () => void;
}
