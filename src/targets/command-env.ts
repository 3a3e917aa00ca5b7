/**
 * The environment of a server started from the command line (`candor lint --
 * npx some-server`). Such a command gets the caller's environment,
 * as `env`, `npx` and shells pass it on, so `GITHUB_TOKEN=… candor lint -- …`
 * reaches the server; `--env-file` entries and `--env KEY=VALUE` pairs are
 * laid over it, in that order (a pair wins over a file, a later file over an
 * earlier one).
 *
 * Servers read from a client config file (`mcp.json#github`) are not touched:
 * they run exactly as the clients run them, with their entry's `env` over the
 * SDK's short safe default (HOME, LOGNAME, PATH, SHELL, TERM, USER).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { CandorError } from '../errors.js';

/** What the command line said about a command target's environment. */
export interface CommandEnvInput {
  /** `--env KEY=VALUE`, in order (repeatable). */
  pairs?: readonly string[];
  /** `--env-file <file>`, in order (repeatable; dotenv syntax). */
  files?: readonly string[];
  /** The environment passed on. Default: `process.env`. */
  inherit?: NodeJS.ProcessEnv;
  /** Base for relative file names. Default: `process.cwd()`. */
  cwd?: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The environment for a `--` command target. Throws a {@link CandorError}
 * (`invalid_target`) naming a malformed pair or an unreadable file.
 *
 * @example
 * ```ts
 * await commandEnv({ pairs: ['LOG_LEVEL=debug'], files: ['.env'] });
 * // { ...process.env, ...entries of .env, LOG_LEVEL: 'debug' }
 * ```
 */
export async function commandEnv(input: CommandEnvInput = {}): Promise<Record<string, string>> {
  const { pairs = [], files = [], inherit = process.env, cwd = process.cwd() } = input;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inherit)) if (value !== undefined) env[key] = value;
  for (const file of files) Object.assign(env, await readEnvFile(path.resolve(cwd, file)));
  for (const pair of pairs) {
    const [key, value] = splitPair(pair);
    env[key] = value;
  }
  return env;
}

/** `KEY=VALUE` → [key, value]; the value may be empty and may contain `=`. */
export function splitPair(pair: string): [string, string] {
  const eq = pair.indexOf('=');
  const key = eq < 0 ? pair : pair.slice(0, eq);
  if (eq < 0 || !NAME.test(key)) {
    throw new CandorError(
      `--env ${JSON.stringify(pair)}: expected KEY=VALUE with a name of letters, digits and _ (e.g. --env GITHUB_TOKEN=abc).`,
      { code: 'invalid_target' },
    );
  }
  return [key, pair.slice(eq + 1)];
}

async function readEnvFile(file: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CandorError(
      `--env-file ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : (error as Error).message}.`,
      { code: 'invalid_target', cause: error },
    );
  }
  // Node's own dotenv reader (the one behind `node --env-file`): KEY=VALUE lines, # comments, quotes, `export`.
  return parseEnv(text) as Record<string, string>;
}
