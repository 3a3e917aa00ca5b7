/**
 * Turning command-line words into targets:
 * - `http://…` / `https://…` → Streamable HTTP;
 * - everything after `--` → a command to start over stdio;
 * - `./server.js`, `src/tools.ts` → a local module;
 * - `mcp.json` → every server in the file; `mcp.json#name` → one of them;
 * - `--config file [--server name]` → the same, as options.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { CandorError } from '../errors.js';
import { type CommandEnvInput, commandEnv } from './command-env.js';
import { readConfigTargets } from './config-file.js';
import type { Target } from './types.js';

/** What the CLI collected. */
export interface TargetInput {
  /** Positional words before any `--`. */
  targets?: readonly string[];
  /** The words after `--`: a command and its arguments. */
  command?: readonly string[];
  /** `--config <file>`. */
  config?: string;
  /** `--server <name>`: only this entry of the config file. */
  server?: string;
  /** Base for relative paths (default: process.cwd()). */
  cwd?: string;
  /**
   * `--env` / `--env-file` for the `--` command. The command gets
   * the caller's environment with these laid over it; config file entries are
   * never changed (see command-env.ts).
   */
  commandEnv?: Omit<CommandEnvInput, 'cwd'>;
}

const MODULE_EXTENSIONS = /\.(?:[cm]?js|[cm]?ts|tsx|jsx)$/i;

/**
 * Parse CLI targets, reading config files. Throws a {@link CandorError}
 * (`invalid_target`) with a message that says what is accepted.
 *
 * @example
 * ```ts
 * await parseTargets({ targets: ['http://127.0.0.1:3000/mcp'] });
 * // [{ kind: 'http', url: 'http://127.0.0.1:3000/mcp', transport: 'streamable-http', label: '127.0.0.1:3000/mcp' }]
 * await parseTargets({ command: ['node', 'server.js'] });
 * // [{ kind: 'stdio', command: 'node', args: ['server.js'], label: 'node server.js' }]
 * ```
 */
export async function parseTargets(input: TargetInput): Promise<Target[]> {
  const cwd = input.cwd ?? process.cwd();
  const out: Target[] = [];
  if (input.server !== undefined && input.config === undefined) {
    throw new CandorError('--server needs --config <file> (or use file.json#name).', { code: 'invalid_target' });
  }
  if (input.config !== undefined) {
    const config = path.resolve(cwd, input.config);
    out.push(...(await readConfigTargets({ file: config, ...(input.server ? { server: input.server } : {}) })));
  }
  for (const word of input.targets ?? []) out.push(...(await parseWord(word, cwd)));
  const wantsEnv = (input.commandEnv?.pairs?.length ?? 0) + (input.commandEnv?.files?.length ?? 0) > 0;
  if (input.command && input.command.length > 0) {
    const [command, ...args] = input.command;
    const env = await commandEnv({ ...input.commandEnv, cwd });
    const ownEnv = await commandEnv({ ...input.commandEnv, inherit: {}, cwd });
    out.push({ kind: 'stdio', command: command!, args, env, ownEnv, label: commandLabel(command!, args) });
  } else if (wantsEnv) {
    throw new CandorError(
      '--env and --env-file apply to a server started with -- <command> [args…]; servers from a config file run with their own "env", as clients run them.',
      { code: 'invalid_target' },
    );
  }
  if (out.length === 0) {
    throw new CandorError(
      'No target given. Use a URL (http://127.0.0.1:3000/mcp), -- <command> [args…], a module (./server.ts), or a config file (mcp.json, mcp.json#name, --config file).',
      { code: 'invalid_target' },
    );
  }
  return out;
}

async function parseWord(word: string, cwd: string): Promise<Target[]> {
  if (/^https?:\/\//i.test(word)) {
    let url: URL;
    try {
      url = new URL(word);
    } catch {
      throw new CandorError(`${JSON.stringify(word)} is not a valid URL.`, { code: 'invalid_target' });
    }
    return [{ kind: 'http', url: url.href, transport: 'streamable-http', label: `${url.host}${url.pathname}` }];
  }
  const hash = word.lastIndexOf('#');
  if (hash > 0 && /\.jsonc?$/i.test(word.slice(0, hash))) {
    return readConfigTargets({ file: path.resolve(cwd, word.slice(0, hash)), server: word.slice(hash + 1) });
  }
  if (/\.jsonc?$/i.test(word)) return readConfigTargets({ file: path.resolve(cwd, word) });
  const file = path.resolve(cwd, word);
  if (MODULE_EXTENSIONS.test(word) || (existsSync(file) && statSync(file).isFile())) {
    if (!existsSync(file)) throw new CandorError(`Module not found: ${file}.`, { code: 'invalid_target' });
    return [{ kind: 'module', path: file, label: path.relative(cwd, file) || file }];
  }
  throw new CandorError(
    `Cannot tell what ${JSON.stringify(word)} is. Use a URL (http(s)://…), a module file (.js/.ts), a config file (.json, file.json#name), or put a command after -- (candor lint -- npx my-server).`,
    { code: 'invalid_target' },
  );
}

/** `node server.js --root /tmp`, shortened for display. */
export function commandLabel(command: string, args: readonly string[]): string {
  const words = [path.basename(command), ...args].join(' ');
  return words.length > 60 ? `${words.slice(0, 57)}…` : words;
}
