/**
 * Open connections kept per person × upstream on one gateway instance: reused while
 * used, closed when idle, and the least recently used closed first past a bound.
 */
import type { ServerConnection } from '../host/server-connection.js';

interface Open {
  connection: ServerConnection;
  used: number;
}

/**
 * The pool.
 *
 * @example
 * ```ts
 * const pool = new PersonConnections({ maxConnections: 256, idleMs: 600_000 });
 * const open = pool.get('billing', 'alice') ?? pool.add('billing', 'alice', connection);
 * ```
 */
export class PersonConnections {
  readonly #open = new Map<string, Open>();
  readonly #max: number;
  readonly #idleMs: number;
  readonly #sweep: ReturnType<typeof setInterval>;

  constructor(options: { maxConnections?: number | undefined; idleMs?: number | undefined } = {}) {
    this.#max = options.maxConnections ?? 256;
    this.#idleMs = options.idleMs ?? 10 * 60_000;
    this.#sweep = setInterval(() => this.#closeIdle(), 30_000);
    this.#sweep.unref();
  }

  /** The person's usable connection to `server`, if one is open. */
  get(server: string, person: string): ServerConnection | undefined {
    const open = this.#open.get(`${server}\0${person}`);
    if (open === undefined || open.connection.needsReconnect) return undefined;
    open.used = Date.now();
    return open.connection;
  }

  /** Keep `connection` as the person's (closing one it replaces). */
  add(server: string, person: string, connection: ServerConnection): ServerConnection {
    const key = `${server}\0${person}`;
    const previous = this.#open.get(key);
    this.#open.set(key, { connection, used: Date.now() });
    if (previous && previous.connection !== connection) void previous.connection.close();
    if (this.#open.size > this.#max) {
      const oldest = [...this.#open.entries()].sort((a, b) => a[1].used - b[1].used);
      for (const [k, open] of oldest.slice(0, this.#open.size - this.#max)) {
        this.#open.delete(k);
        void open.connection.close();
      }
    }
    return connection;
  }

  /** How many people have an open connection to `server`. */
  people(server: string): number {
    let count = 0;
    for (const key of this.#open.keys()) if (key.startsWith(`${server}\0`)) count++;
    return count;
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    const open = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(open.map((o) => o.connection.close()));
  }

  #closeIdle(): void {
    const idle = Date.now() - this.#idleMs;
    for (const [key, open] of this.#open) {
      if (open.used < idle) {
        this.#open.delete(key);
        void open.connection.close();
      }
    }
  }
}
