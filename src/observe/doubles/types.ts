/**
 * The contract every service double follows: a real program (a database, a TLS
 * server, a page server) that observe or scan starts on demand beside a sandboxed
 * server, points the server at, and stops afterwards. A double changes the sandbox
 * only through the plan pieces it returns (environment, read-only mounts such as a
 * generated `/etc/hosts` or CA bundle, paths it may write); nothing else in candor
 * learns about doubles. Its witness reports what a call *changed* in the service,
 * as data the verdict rules read beside the trace. A leaf file: it imports nothing
 * from its siblings.
 */

/** The kinds of double candor ships. */
export type DoubleKind = 'postgres' | 'mysql' | 'redis' | 'sqlite' | 'https-api' | 'page';

/** One change a witness saw during one call. */
export type WitnessChange =
  /** Rows inserted, updated or deleted in a table (or keys set/deleted in Redis: `table` is the key pattern). */
  | {
      kind: 'db-write';
      service: DoubleKind;
      table: string;
      inserted: number;
      updated: number;
      deleted: number;
    }
  /** A table, index, database or schema created, altered or dropped. */
  | { kind: 'db-schema'; service: DoubleKind; object: string; change: 'created' | 'altered' | 'dropped' }
  /**
   * One request an HTTPS API double received. `operation` is the GraphQL operation type
   * when the body was GraphQL. `read` is the double's judgement of the request's meaning
   * (`true` a read, `false` a write, `'ambiguous'` a POST whose shape it cannot place).
   * Never carries credentials: no headers, no query values, no bodies.
   */
  | {
      kind: 'request';
      method: string;
      host: string;
      path: string;
      operation?: 'query' | 'mutation' | 'subscription';
      read: boolean | 'ambiguous';
    }
  /** A page double saw a navigation or a form submission. */
  | { kind: 'page'; action: 'navigate' | 'submit'; path: string; method: string };

/** What a started double hands to the sandbox plan and to observe. */
export interface StartedDouble {
  kind: DoubleKind;
  /** Environment for the sandboxed server (a connection URL, `NODE_EXTRA_CA_CERTS`, …). */
  env: Record<string, string>;
  /** Read-only files shown inside the sandbox at another path: [outside, inside]. */
  mounts: Array<readonly [string, string]>;
  /** Host names that resolve to the double inside the sandbox (written into the generated /etc/hosts). */
  hosts: string[];
  /** Loopback `host:port` destinations the sandboxed server must be able to reach. */
  destinations: string[];
  /**
   * Loopback `host:port` addresses inside the sandbox → the Unix socket outside that the double
   * listens on. The sandbox's own network namespace listens there and pipes each connection to
   * the socket, so a database answers at its usual port inside (`127.0.0.1:5432`) while it holds
   * no TCP port on the machine.
   */
  sockets?: Record<string, string>;
  /** Paths the sandboxed server may write (a SQLite double's folder). */
  write?: string[];
  /**
   * Named endpoints reached inside the sandbox at another port than the double's own:
   * the API's names on 443 inside, carried to the double's loopback listener outside
   * (`{ host: 'api.example.com', port: 443, target: { host: '127.0.0.1', port: 40123 } }`).
   * The sandbox's network bridge takes them as destinations with a target. Absent for
   * doubles reached at the same `host:port` inside and out.
   */
  routes?: Array<{ host: string; port: number; target: { host: string; port: number } }>;
  /** Arguments for the server's command where a double is named by argument (`{url}` placeholders filled). */
  values: Record<string, string>;
  /** Seeded names the argument generator may use (table names, keys, ids, page paths). */
  seeds: Record<string, string[]>;
  /** Marks the state before a call; `changes()` reports what changed since the last mark. */
  witness: Witness;
  /** Stops the service and removes its files. Safe to call twice. */
  stop(): Promise<void>;
}

/** Reads a double's state around each call. */
export interface Witness {
  /** Takes the before-state (called just before each tools/call). */
  mark(): Promise<void>;
  /** What changed since the last mark (called just after the call answered). */
  changes(): Promise<WitnessChange[]>;
}

/** What a double needs to start. */
export interface DoubleOptions {
  /** A private folder for the double's data, sockets and certificates (removed by `stop`). */
  dir: string;
  /** For `https-api`: the API's host names (from server.json, a flag, or the package's known base URLs). */
  hosts?: string[];
  /** Seed data to load instead of the double's default (SQL file, Redis commands, JSON). */
  seedFile?: string;
  signal?: AbortSignal;
}
