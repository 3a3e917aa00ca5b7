/**
 * Where sign-ins to remote MCP servers are kept between commands:
 * `$CANDOR_CREDENTIALS`, else `$XDG_CONFIG_HOME/candor/credentials.json`, else
 * `~/.config/candor/credentials.json`. The folder is 0700 and the file 0600; every write
 * goes to a temporary file renamed over the old one, so a crash never leaves half a file.
 * Entries are keyed by the canonical resource URL (RFC 8707) and remember the issuer that
 * issued them: a sign-in is never offered to another issuer's endpoints.
 *
 * A file that does not parse is never overwritten: the error says where it is, so the
 * person can look at it (or remove it) without losing every other sign-in by accident.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { CandorError } from '../../errors.js';

/** Tokens as stored: `expires_at` (ms since the epoch) instead of the response's relative `expires_in`. */
export interface StoredTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  expires_at?: number;
  /** The lifetime the server gave (ms), to refresh short-lived tokens in time. */
  lifetime?: number;
}

/** A client registered (or named by a metadata document URL) at an authorization server. */
export interface StoredClient {
  client_id: string;
  client_secret?: string;
  client_secret_expires_at?: number;
  client_id_issued_at?: number;
  redirect_uris?: string[];
  [key: string]: unknown;
}

/** One server's sign-in. */
export interface StoredSignIn {
  /** The canonical URL of the MCP server (the key). */
  resource: string;
  /** The authorization server's `issuer` that registered the client and issued the tokens. */
  issuer?: string;
  client?: StoredClient;
  tokens?: StoredTokens;
  /** When the tokens were last saved (ISO 8601). */
  savedAt?: string;
}

interface CredentialsFile {
  version: 1;
  signIns: Record<string, StoredSignIn>;
}

/**
 * The credentials file path for this environment.
 *
 * @example
 * ```ts
 * credentialsPath({ XDG_CONFIG_HOME: '/home/me/.config' }); // '/home/me/.config/candor/credentials.json'
 * ```
 */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CANDOR_CREDENTIALS) return path.resolve(env.CANDOR_CREDENTIALS);
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(homedir(), '.config');
  return path.join(base, 'candor', 'credentials.json');
}

/**
 * The canonical form of an MCP server URL (RFC 8707 §2): lower-case scheme and host,
 * no fragment, no default port, no trailing slash on a bare origin.
 *
 * @example
 * ```ts
 * canonicalResource('HTTPS://MCP.Example.com:443/mcp#x'); // 'https://mcp.example.com/mcp'
 * ```
 */
export function canonicalResource(url: string | URL): string {
  const u = new URL(String(url));
  u.hash = '';
  const text = u.href;
  return u.pathname === '/' && u.search === '' ? text.replace(/\/$/, '') : text;
}

/**
 * The sign-ins on this machine, read and written as one small JSON file.
 *
 * @example
 * ```ts
 * const store = new CredentialsStore();
 * const signIn = await store.get('https://mcp.example.com/mcp');
 * ```
 */
export class CredentialsStore {
  readonly file: string;
  /** Set while this process holds the file lock, so nested calls do not wait on themselves. */
  readonly #holding = new AsyncLocalStorage<true>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string = credentialsPath()) {
    this.file = file;
  }

  /**
   * Run `fn` holding the credentials lock (`<file>.lock`, created exclusively; one left by a
   * crashed process is taken over after 30 s). Read-change-write and refreshing a rotated
   * refresh token go under it, so two processes (a gateway and a command) never both spend
   * the same refresh token or lose each other's writes.
   */
  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#holding.getStore()) return fn();
    const run = this.#queue.then(async () => {
      const release = await lockFile(`${this.file}.lock`);
      try {
        return await this.#holding.run(true, fn);
      } finally {
        await release();
      }
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  /** The sign-in for a server, if any. */
  async get(resource: string): Promise<StoredSignIn | undefined> {
    return (await this.#read()).signIns[canonicalResource(resource)];
  }

  /** Every sign-in, keyed by resource. */
  async list(): Promise<StoredSignIn[]> {
    return Object.values((await this.#read()).signIns);
  }

  /** Change one server's entry (read, change, write atomically); `undefined` from `change` removes it. */
  async update(
    resource: string,
    change: (entry: StoredSignIn) => StoredSignIn | undefined,
  ): Promise<StoredSignIn | undefined> {
    const key = canonicalResource(resource);
    return this.withLock(async () => {
      const data = await this.#read();
      const next = change(data.signIns[key] ?? { resource: key });
      if (next === undefined) delete data.signIns[key];
      else data.signIns[key] = { ...next, resource: key };
      await this.#write(data);
      return next;
    });
  }

  /** Forget one server's sign-in. Returns what was removed. */
  async delete(resource: string): Promise<StoredSignIn | undefined> {
    const key = canonicalResource(resource);
    return this.withLock(async () => {
      const data = await this.#read();
      const removed = data.signIns[key];
      if (removed === undefined) return undefined;
      delete data.signIns[key];
      await this.#write(data);
      return removed;
    });
  }

  async #read(): Promise<CredentialsFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, signIns: {} };
      throw new CandorError(`Cannot read the credentials file ${this.file}: ${(error as Error).message}.`, {
        code: 'credentials_unreadable',
        cause: error,
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw corrupt(this.file, `it is not valid JSON (${(error as Error).message})`, error);
    }
    const signIns = (parsed as { signIns?: unknown } | null)?.signIns;
    if ((parsed as { version?: unknown } | null)?.version !== 1 || typeof signIns !== 'object' || signIns === null) {
      throw corrupt(this.file, 'it is not a candor credentials file (version 1)');
    }
    return { version: 1, signIns: signIns as Record<string, StoredSignIn> };
  }

  async #write(data: CredentialsFile): Promise<void> {
    const dir = path.dirname(this.file);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = path.join(dir, `.${path.basename(this.file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      await chmod(temp, 0o600);
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw new CandorError(`Cannot write the credentials file ${this.file}: ${(error as Error).message}.`, {
        code: 'credentials_unwritable',
        cause: error,
      });
    }
  }
}

/** Take an exclusive lock file; resolves with its release. */
async function lockFile(lock: string): Promise<() => Promise<void>> {
  await mkdir(path.dirname(lock), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > 30_000) await rm(lock, { force: true });
      else if (Date.now() > deadline) {
        throw new CandorError(`The credentials file is locked by another candor process (${lock}); try again.`, {
          code: 'credentials_locked',
        });
      } else await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
    }
  }
}

function corrupt(file: string, why: string, cause?: unknown): CandorError {
  return new CandorError(
    `The credentials file ${file} cannot be used: ${why}. It is left as it is; move it away to start over (every sign-in in it is then lost).`,
    { code: 'credentials_corrupt', ...(cause === undefined ? {} : { cause }) },
  );
}
