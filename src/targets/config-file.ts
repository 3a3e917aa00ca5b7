/**
 * Client config files: the `mcpServers` map of Claude Desktop, Claude Code (`.mcp.json`),
 * Cursor and Windsurf, and VS Code's `servers` map (`.vscode/mcp.json`, or `mcp.servers`
 * in settings.json). Entries have `command`/`args`/`env` (stdio) or `url` (+ `type`, `headers`).
 */

import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseAuthSetting } from '../auth/client/settings.js';
import { CandorError } from '../errors.js';
import { isRecord } from '../util/is-record.js';
import type { Target } from './types.js';

/**
 * Strip `//` and `/* *\/` comments and trailing commas (VS Code's JSONC), leaving strings intact.
 *
 * @example
 * ```ts
 * JSON.parse(stripJsonComments('{ "a": 1, // note\n }')); // { a: 1 }
 * ```
 */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else {
      out += ch;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/** The server map of a parsed config, whichever client wrote it. */
function serverMap(config: unknown, file: string): Record<string, unknown> {
  if (isRecord(config)) {
    // candor.config.json's "gateway" key: pin and lint the gateway's upstreams too.
    if (isRecord(config.gateway) && !isRecord(config.mcpServers) && !isRecord(config.servers)) {
      return serverMap(config.gateway, file);
    }
    if (isRecord(config.mcpServers)) return config.mcpServers;
    if (isRecord(config.servers)) return config.servers;
    if (isRecord(config.mcp) && isRecord(config.mcp.servers)) return config.mcp.servers;
  }
  throw new CandorError(
    `${file} has no server map: expected "mcpServers" (Claude Desktop, Claude Code, Cursor), "servers" (VS Code .vscode/mcp.json, candor.gateway.json), "mcp": { "servers" } (VS Code settings) or "gateway": { "servers" } (candor.config.json).`,
    { code: 'invalid_target' },
  );
}

/**
 * Read every server of a client config file as targets (in file order). Entries that
 * cannot be used become `invalid` targets with the reason, so callers report them.
 *
 * @example
 * ```ts
 * const targets = await readConfigTargets({ file: '.cursor/mcp.json' });
 * targets.map((t) => t.label); // ['filesystem', 'github', …]
 * ```
 */
export async function readConfigTargets(options: { file: string; server?: string }): Promise<Target[]> {
  const file = path.resolve(options.file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CandorError(
      code === 'ENOENT' ? `Config file not found: ${file}.` : `Cannot read config file ${file}: ${String(error)}.`,
      { code: 'invalid_target', cause: error },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new CandorError(`${file} is not valid JSON: ${(error as Error).message}.`, {
      code: 'invalid_target',
      cause: error,
    });
  }
  const servers = serverMap(parsed, file);
  const names = Object.keys(servers);
  if (options.server !== undefined) {
    if (!(options.server in servers)) {
      throw new CandorError(
        `${file} has no server named ${JSON.stringify(options.server)}; it has ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'}.`,
        { code: 'invalid_target' },
      );
    }
    return [entryToTarget(options.server, servers[options.server], file)];
  }
  return names.map((name) => entryToTarget(name, servers[name], file));
}

/** The values of an entry's `"protocol"` key, as the era a connection is held to. */
const PROTOCOL_KEY: Readonly<Record<string, 'legacy' | 'modern' | 'auto'>> = {
  '2025-11-25': 'legacy',
  '2026-07-28': 'modern',
  auto: 'auto',
};

/**
 * One config entry as a target.
 *
 * @example
 * ```ts
 * entryToTarget('fs', { command: 'npx', args: ['-y', 'pkg', '/tmp'] }, '/home/me/mcp.json').kind; // 'stdio'
 * ```
 */
export function entryToTarget(name: string, entry: unknown, file: string): Target {
  const invalid = (reason: string): Target => ({
    label: name,
    source: { file, name },
    kind: 'invalid',
    reason: `${name}: ${reason}`,
  });
  if (!isRecord(entry)) return invalid('the entry is not an object.');
  const protocol = entry.protocol === undefined ? undefined : PROTOCOL_KEY[String(entry.protocol)];
  if (entry.protocol !== undefined && protocol === undefined) {
    return invalid(`"protocol" must be "2025-11-25", "2026-07-28" or "auto"; got ${JSON.stringify(entry.protocol)}.`);
  }
  const base = { label: name, source: { file, name }, ...(protocol ? { protocol } : {}) };
  const type = typeof entry.type === 'string' ? entry.type.toLowerCase() : undefined;
  const vars = new Variables(file);
  try {
    const url =
      typeof entry.url === 'string' ? entry.url : typeof entry.serverUrl === 'string' ? entry.serverUrl : undefined;
    if (type === 'stdio' || (type === undefined && typeof entry.command === 'string')) {
      if (typeof entry.command !== 'string' || entry.command.trim() === '') return invalid('"command" is missing.');
      if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string'))) {
        return invalid('"args" must be an array of strings.');
      }
      const env = stringMap(entry.env, 'env');
      return {
        ...base,
        kind: 'stdio',
        command: vars.expand(entry.command),
        args: ((entry.args as string[] | undefined) ?? []).map((a) => vars.expand(a)),
        ...(env ? { env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, vars.expand(v)])) } : {}),
        ...(typeof entry.cwd === 'string' ? { cwd: path.resolve(path.dirname(file), vars.expand(entry.cwd)) } : {}),
      };
    }
    if (url !== undefined) {
      const expanded = vars.expand(url);
      if (!/^https?:\/\//i.test(expanded)) return invalid(`"url" must be http(s)://…; got ${JSON.stringify(url)}.`);
      const headers = stringMap(entry.headers, 'headers');
      const auth = entry.auth === undefined ? undefined : parseAuthSetting(entry.auth, file);
      return {
        ...base,
        kind: 'http',
        url: expanded,
        transport: type === 'sse' ? 'sse' : 'streamable-http',
        ...(headers
          ? { headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, vars.expand(v)])) }
          : {}),
        ...(auth ? { auth } : {}),
      };
    }
    return invalid(
      `neither "command" (stdio) nor "url" (HTTP) is set${type ? ` for type ${JSON.stringify(type)}` : ''}.`,
    );
  } catch (error) {
    return invalid((error as Error).message);
  }
}

function stringMap(value: unknown, key: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw new CandorError(`"${key}" must map names to strings.`, { code: 'invalid_server_config' });
  }
  return value as Record<string, string>;
}

/**
 * Variables clients expand in entries: VS Code's `${env:NAME}`, `${userHome}`,
 * `${workspaceFolder}`, and Claude Code's `${NAME}` / `${NAME:-default}`. `${input:…}`
 * needs a prompt in the editor, so it cannot be resolved here.
 */
class Variables {
  readonly #workspace: string;

  constructor(file: string) {
    const dir = path.dirname(file);
    this.#workspace = path.basename(dir) === '.vscode' ? path.dirname(dir) : dir;
  }

  expand(value: string): string {
    return value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
      if (inner === 'userHome') return homedir();
      if (inner === 'workspaceFolder' || inner === 'workspaceRoot') return this.#workspace;
      if (inner === 'pathSeparator') return path.sep;
      if (inner.startsWith('input:')) {
        throw new CandorError(`${whole} is an editor prompt; it cannot be resolved outside the editor.`, {
          code: 'invalid_server_config',
        });
      }
      const [name, fallback] = inner.startsWith('env:') ? [inner.slice(4), undefined] : inner.split(':-', 2);
      if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return whole;
      const found = process.env[name];
      if (found !== undefined) return found;
      if (fallback !== undefined) return fallback;
      if (inner.startsWith('env:')) return '';
      throw new CandorError(`${whole} needs the environment variable ${name}, which is not set.`, {
        code: 'invalid_server_config',
      });
    });
  }
}
