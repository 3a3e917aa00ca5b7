/**
 * The services an observed server needs beside it (`--service postgres`):
 * start each double, point the server at it (its connection variables, or
 * `{postgres}`-style placeholders in the server's arguments and environment),
 * hand the sandbox the pieces that reach it, read every witness around each
 * call, and stop them all afterwards. The one place observe learns about
 * doubles; the sandbox only sees listeners, mounts and paths.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CandorError } from '../errors.js';
import { type Destination, parseDestination } from '../sandbox/index.js';
import { DOUBLE_ALIASES, DOUBLES, startDouble } from './doubles/start.js';
import type { DoubleKind, StartedDouble, WitnessChange } from './doubles/types.js';
import type { SandboxServices } from './sandbox.js';

/** One double an observed server should get. */
export interface ServiceRequest {
  kind: DoubleKind;
  /**
   * The environment variables that get its connection URL (a path for SQLite). Absent: the
   * double's usual variables (`DATABASE_URL`, `PGHOST`…, `MYSQL_HOST`…, `REDIS_URL`…).
   */
  env?: string[];
  /** Seed data instead of the double's own (SQL, or Redis commands one a line). */
  seedFile?: string;
  /** For `https-api`: the API's host names, which lead to the double inside the sandbox. */
  hosts?: string[];
}

/**
 * `postgres`, `postgres=DB_URL`, `postgres=DB_URL,OTHER_URL`, `page=START_URL` as a request;
 * for `https-api` what follows `=` is the API's host names (`https-api=api.github.com,uploads.github.com`),
 * and at least one is needed. Throws a clear error for a kind candor has no double of.
 *
 * @example
 * ```ts
 * parseService('redis=CACHE_URL'); // { kind: 'redis', env: ['CACHE_URL'] }
 * parseService('https-api=api.github.com'); // { kind: 'https-api', hosts: ['api.github.com'] }
 * ```
 */
export function parseService(text: string): ServiceRequest {
  const cut = text.indexOf('=');
  const name = (cut < 0 ? text : text.slice(0, cut)).trim().toLowerCase();
  const kind = (DOUBLE_ALIASES[name] ?? name) as DoubleKind;
  if (!DOUBLES[kind]) {
    throw new CandorError(
      `--service ${text}: no double named ${JSON.stringify(name)}; candor has ${Object.keys(DOUBLES).join(', ')}.`,
      { code: 'observe_double_failed' },
    );
  }
  const list = (cut < 0 ? '' : text.slice(cut + 1))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (kind === 'https-api') return { kind, hosts: apiHosts(text, list) };
  if (cut < 0) return { kind };
  const env = list;
  const bad = env.find((v) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v));
  if (env.length === 0 || bad !== undefined) {
    throw new CandorError(
      `--service ${text}: after "=" comes the environment variable (or variables, comma-separated) that gets the ${kind} URL${bad === undefined ? '' : `; ${JSON.stringify(bad)} is not a variable name`}.`,
      { code: 'observe_double_failed' },
    );
  }
  return { kind, env };
}

/** A name the API is reached by: letters, digits, dots and hyphens, with a letter (never an address). */
const HOST_NAME = /^(?=.*[a-z])[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))*$/;

function apiHosts(text: string, list: readonly string[]): string[] {
  const hosts = list.map((h) => h.toLowerCase().replace(/\.$/, ''));
  const bad = hosts.find((h) => h.length > 253 || !HOST_NAME.test(h) || h === 'localhost');
  if (hosts.length === 0 || bad !== undefined) {
    throw new CandorError(
      `--service ${text}: after "https-api=" come the API's host names, comma-separated (e.g. https-api=api.github.com)${bad === undefined ? '' : `; ${JSON.stringify(bad)} is not a remote host name`}.`,
      { code: 'observe_double_failed' },
    );
  }
  return [...new Set(hosts)];
}

/** The doubles of one observed run, started. */
export interface RunningServices {
  /** The server's environment from the doubles (under the person's own `--env`). */
  env: Record<string, string>;
  /** What the sandbox gets: listeners, mounts, writable paths. */
  sandbox: SandboxServices;
  /** Seeded names, merged over every double (`table`, `id`, `key`, …). */
  seeds: Record<string, string[]>;
  /** `{postgres}`, `{postgres.port}`, … in a server's arguments or environment values, filled. */
  fill(text: string): string;
  mark(): Promise<void>;
  changes(): Promise<WitnessChange[]>;
  stop(): Promise<void>;
}

const PLACEHOLDER = /\{([a-z]+(?:-[a-z]+)*)(?:\.([a-z]+))?\}/g;

/**
 * Start the requested doubles (one at a time: each is quick, and the machine's cores are the
 * server's). If one fails, the ones started are stopped and the error says which failed.
 *
 * @example
 * ```ts
 * const services = await startServices([{ kind: 'postgres' }]);
 * services.env.DATABASE_URL; // 'postgresql://candor:candor@127.0.0.1:5432/candor'
 * await services.stop();
 * ```
 */
export async function startServices(
  requests: readonly ServiceRequest[],
  signal?: AbortSignal,
): Promise<RunningServices> {
  const started: StartedDouble[] = [];
  const base = requests.length > 0 ? await mkdtemp(path.join(tmpdir(), 'candor-double-')) : undefined;
  const stop = async () => {
    await Promise.all(started.map((double) => double.stop().catch(() => {})));
    if (base) await rm(base, { recursive: true, force: true });
  };
  const env: Record<string, string> = {};
  const values = new Map<string, Record<string, string>>();
  try {
    for (const [index, request] of requests.entries()) {
      if (values.has(request.kind)) {
        throw new CandorError(`--service ${request.kind} is given twice; one double of each kind runs.`, {
          code: 'observe_double_failed',
        });
      }
      const double = await startDouble(request.kind, {
        dir: path.join(base!, `${index}-${request.kind}`),
        ...(request.seedFile ? { seedFile: request.seedFile } : {}),
        ...(request.hosts ? { hosts: request.hosts } : {}),
        ...(signal ? { signal } : {}),
      });
      started.push(double);
      values.set(request.kind, double.values);
      const url = double.values.url ?? double.values.path ?? '';
      // Named variables get the URL; otherwise the double's own, never over one an earlier double set.
      const own = request.env ? Object.fromEntries(request.env.map((name) => [name, url])) : double.env;
      for (const [name, value] of Object.entries(own)) if (!(name in env) || request.env) env[name] = value;
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const fill = (text: string) =>
    text.replace(PLACEHOLDER, (whole, kind: string, key?: string) => {
      const known = values.get((DOUBLE_ALIASES[kind] ?? kind) as DoubleKind);
      return known?.[key ?? 'url'] ?? (key === undefined ? known?.path : undefined) ?? whole;
    });
  return {
    env,
    sandbox: sandboxPieces(started),
    seeds: mergedSeeds(started),
    fill,
    mark: async () => {
      await Promise.all(started.map((double) => double.witness.mark()));
    },
    changes: async () => (await Promise.all(started.map((double) => double.witness.changes()))).flat(),
    stop,
  };
}

/** Every double's listeners, mounts and writable paths, for the sandbox. */
function sandboxPieces(started: readonly StartedDouble[]): SandboxServices {
  const forwards = started.flatMap((double) =>
    Object.entries(double.sockets ?? {}).map(([address, socket]) => {
      const destination = parseDestination(address) as Destination;
      return { host: destination.host, port: destination.port, socket };
    }),
  );
  // A routed name (an API's, on 443 inside) gets its own loopback address from the bridge's /etc/hosts,
  // so it is not also written as 127.0.0.1 (a resolver returning both would try a port nothing serves).
  const routes: Destination[] = started.flatMap((double) => double.routes ?? []);
  const routed = new Set(routes.map((route) => route.host));
  return {
    forwards,
    destinations: [
      ...started.flatMap((double) => double.destinations.map((d) => parseDestination(d) as Destination)),
      ...routes,
    ],
    hosts: started.flatMap((double) => double.hosts).filter((host) => !routed.has(host)),
    mounts: started.flatMap((double) => double.mounts),
    write: started.flatMap((double) => double.write ?? []),
  };
}

function mergedSeeds(started: readonly StartedDouble[]): Record<string, string[]> {
  const seeds: Record<string, string[]> = {};
  for (const double of started) {
    // The web address a double is reached at (an API's base, the page's start) is what a `url` property takes.
    const web = /^https?:\/\//.test(double.values.url ?? '') ? { url: [double.values.url!] } : {};
    for (const [name, list] of Object.entries({ ...web, ...double.seeds }))
      seeds[name] = [...new Set([...(seeds[name] ?? []), ...list])];
  }
  return seeds;
}
