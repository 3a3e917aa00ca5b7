/**
 * The session log: every call (from the console or a View), every decision a
 * person or the policy made, and what Views asked for that the console only
 * shows (`ui/message`, model context, links). Kept in memory for the launch.
 */
import type { EventHub } from './event-stream.js';

/** One entry of the session log. */
export interface SessionEntry {
  seq: number;
  at: string;
  kind: 'call' | 'decision' | 'view' | 'refusal';
  /** Who acted: the console (a person), or a View of a server. */
  origin: 'console' | `view:${string}`;
  tool?: string;
  summary: string;
  detail?: unknown;
}

/**
 * Appends entries and streams each one to the console.
 *
 * @example
 * ```ts
 * log.add({ kind: 'refusal', origin: 'view:notes', tool: 'notes__delete_note', summary: 'not for apps' });
 * ```
 */
export class SessionLog {
  readonly #entries: SessionEntry[] = [];
  readonly #hub: EventHub;
  readonly #limit: number;

  constructor(hub: EventHub, limit = 1000) {
    this.#hub = hub;
    this.#limit = limit;
  }

  add(entry: Omit<SessionEntry, 'seq' | 'at'>): SessionEntry {
    const full: SessionEntry = { seq: (this.#entries.at(-1)?.seq ?? 0) + 1, at: new Date().toISOString(), ...entry };
    this.#entries.push(full);
    if (this.#entries.length > this.#limit) this.#entries.shift();
    this.#hub.send({ type: 'session', data: full });
    return full;
  }

  entries(): SessionEntry[] {
    return [...this.#entries];
  }
}
