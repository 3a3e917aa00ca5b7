/**
 * Reading and editing a client's config file with jsonc-parser, so comments,
 * key order and indentation survive (VS Code and Gemini CLI files carry comments;
 * ~/.claude.json carries much more than servers). A file that cannot be read as
 * the client reads it is named with its JSON path and reason, and left alone.
 */
import { readFile } from 'node:fs/promises';
import {
  applyEdits,
  type FormattingOptions,
  findNodeAtLocation,
  getLocation,
  getNodeValue,
  modify,
  type Node,
  type ParseError,
  parse,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { CandorError } from '../errors.js';
import { isRecord } from '../util/is-record.js';

/** A client config file as read: its bytes and its server map. */
export interface ClientFile {
  file: string;
  /** The file's text; undefined when it does not exist yet. */
  text: string | undefined;
  /** The raw server entries by name, in file order. */
  servers: Record<string, unknown>;
}

const NAME = /^[A-Za-z_$][\w$-]*$/;

/**
 * A JSON path as people write it: `mcpServers.github.args[0]`, with keys that are not
 * plain names quoted (`projects["/home/me/repo"].mcpServers`).
 *
 * @example
 * ```ts
 * pathText(['projects', '/repo', 'mcpServers']); // 'projects["/repo"].mcpServers'
 * ```
 */
export function pathText(parts: ReadonlyArray<string | number>): string {
  const step = (p: string | number, i: number) =>
    typeof p === 'number' || !NAME.test(p) ? `[${JSON.stringify(p)}]` : i === 0 ? p : `.${p}`;
  return parts.map(step).join('') || '(top level)';
}

function malformed(file: string, where: string, reason: string): CandorError {
  return new CandorError(`${file} at ${where}: ${reason} The file was left as it is.`, {
    code: 'invalid_server_config',
  });
}

/** Line and column (1-based) of an offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/**
 * Read a client's file and its server map at `mapPath`.
 *
 * @example
 * ```ts
 * const read = await readClientFile('/home/me/.cursor/mcp.json', ['mcpServers']);
 * Object.keys(read.servers); // ['github', 'memory']
 * ```
 */
export async function readClientFile(file: string, mapPath: readonly string[]): Promise<ClientFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, text: undefined, servers: {} };
    throw new CandorError(`Cannot read ${file}: ${(error as Error).message}.`, { code: 'invalid_server_config' });
  }
  return { file, text, servers: serversIn(text, file, mapPath) };
}

/**
 * The server map at `mapPath` of a client file's text (empty when there is none); a
 * text the client could not read is named with its JSON path and reason.
 *
 * @example
 * ```ts
 * serversIn('{"mcpServers":{"memory":{"command":"x"}}}', 'mcp.json', ['mcpServers']); // { memory: { command: 'x' } }
 * ```
 */
export function serversIn(text: string, file: string, mapPath: readonly string[]): Record<string, unknown> {
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const where = pathText(getLocation(text, first.offset).path);
    throw malformed(file, where, `${printParseErrorCode(first.error)} (${lineColumn(text, first.offset)}).`);
  }
  if (text.trim() === '') return {};
  if (!isRecord(parsed)) throw malformed(file, '(top level)', 'expected a JSON object.');
  let node: unknown = parsed;
  for (const [index, key] of mapPath.entries()) {
    if (!isRecord(node)) throw malformed(file, pathText(mapPath.slice(0, index)), 'expected an object.');
    node = node[key];
    if (node === undefined) return {};
  }
  if (!isRecord(node)) throw malformed(file, pathText(mapPath), 'expected an object of servers by name.');
  return node;
}

/** How a file is indented, guessed from its first indented line (two spaces when unknown). */
function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/**
 * The file's text with the server map replaced by `servers`; everything else (comments
 * included) kept.
 *
 * @example
 * ```ts
 * editServers('{ // mine\n "servers": {} }', ['servers'], { candor: { command: 'candor' } });
 * ```
 */
export function editServers(
  text: string | undefined,
  mapPath: readonly string[],
  servers: Record<string, unknown>,
  existing: readonly string[],
): string {
  let out = text === undefined || text.trim() === '' ? '{}\n' : text;
  const options = { formattingOptions: formatting(out) };
  // Entries go one by one so the comments between the ones that stay are kept.
  for (const name of existing) {
    if (!(name in servers)) out = applyEdits(out, modify(out, [...mapPath, name], undefined, options));
  }
  for (const [name, value] of Object.entries(servers)) {
    out = applyEdits(out, modify(out, [...mapPath, name], value, options));
  }
  return out;
}

/**
 * `current` with the server map at `mapPath` put back as it is in `before` (its exact
 * text), or removed when `before` had none; the rest of `current` is kept. Undo uses this
 * when someone changed the file after setup (Claude Code rewrites ~/.claude.json as it
 * runs, and several scopes and projects share that file), so going back takes back only
 * what setup changed. Objects on the way that setup created and that hold nothing else go too.
 *
 * @example
 * ```ts
 * restoreServerMap('{"a":1,"mcpServers":{"candor":{}}}', '{"mcpServers":{"x":{}}}', ['mcpServers']); // '{"a":1,"mcpServers":{"x":{}}}'
 * ```
 */
export function restoreServerMap(current: string, before: string | undefined, mapPath: readonly string[]): string {
  const was = before === undefined ? undefined : nodeAt(before, mapPath);
  const now = nodeAt(current, mapPath);
  if (was && now) {
    const text = before!.slice(was.offset, was.offset + was.length);
    return current.slice(0, now.offset) + text + current.slice(now.offset + now.length);
  }
  const options = { formattingOptions: formatting(current) };
  if (was) return applyEdits(current, modify(current, [...mapPath], getNodeValue(was), options));
  let out = now ? applyEdits(current, modify(current, [...mapPath], undefined, options)) : current;
  for (let depth = mapPath.length - 1; depth > 0; depth--) {
    const at = mapPath.slice(0, depth);
    if (before !== undefined && nodeAt(before, at)) break;
    const node = nodeAt(out, at);
    if (node?.type !== 'object' || (node.children ?? []).length > 0) break;
    out = applyEdits(out, modify(out, at, undefined, options));
  }
  return out;
}

/** The node at `at` in a JSON text, if there is one. */
function nodeAt(text: string, at: readonly string[]): Node | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  return tree ? findNodeAtLocation(tree, [...at]) : undefined;
}
