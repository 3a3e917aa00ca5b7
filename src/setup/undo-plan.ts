/**
 * What `candor setup --undo` writes, worked out from texts alone: a three-way merge of
 * the client's file as it was before setup, as it is now, and the gateway config now.
 * The servers setup moved go back (as the client wrote them, every key kept; rebuilt
 * only when someone changed how the gateway reaches one), servers added behind the
 * gateway since setup move into the client, and everything else in the file stays as
 * it is now. A server that cannot be placed (the client has another of that name now,
 * or cannot take that kind of server) is handed back as a leftover, never dropped.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'jsonc-parser';
import { isRecord } from '../util/is-record.js';
import { editServers, restoreServerMap, serversIn } from './client-file.js';
import { TRANSPORT_KEYS, transportOf } from './plan.js';
import { resolveReferences } from './secrets.js';
import { type ClientSpec, GATEWAY_ENTRY_NAME, type MovedServer, type ServerEntry } from './types.js';

/** What an undo starts from. */
export interface UndoInput {
  client: ClientSpec;
  file: string;
  mapPath: readonly string[];
  /** The client file now (undefined: it was deleted). */
  current: string | undefined;
  /** The client file before the first setup (undefined: it did not exist). */
  before: string | undefined;
  /** Whether the client file is byte for byte what setup last wrote. */
  unchangedSinceSetup: boolean;
  /** The gateway config now (undefined: missing or unreadable). */
  gatewayText: string | undefined;
  moved: Readonly<Record<string, MovedServer>>;
}

/** A server undo could not put in the client's file, and why. */
export interface Leftover {
  entry: unknown;
  reason: string;
}

/** What an undo writes. */
export interface UndoPlan {
  /** The client file's new text; undefined: remove the file (it did not exist before setup). */
  text: string | undefined;
  /** The file goes back byte for byte as it was before setup. */
  whole: boolean;
  /** Servers put into the client's file, in order. */
  placed: string[];
  /** Of those, the ones added behind the gateway since setup. */
  added: string[];
  leftovers: Record<string, Leftover>;
}

/** Keys that say how a client reaches a server, including client spellings of the URL. */
const REACH_KEYS = new Set<string>([...TRANSPORT_KEYS, 'httpUrl', 'serverUrl']);

/** The gateway config's servers, or undefined when it cannot be read. */
function gatewayServers(text: string | undefined): Record<string, Record<string, unknown>> | undefined {
  if (text === undefined) return undefined;
  const parsed: unknown = parse(text);
  if (!isRecord(parsed) || !isRecord(parsed.servers)) return undefined;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, entry] of Object.entries(parsed.servers)) if (isRecord(entry)) out[name] = entry;
  return out;
}

/**
 * Work out one undo.
 *
 * @example
 * ```ts
 * const plan = planUndo({ client: cursor, file, mapPath: ['mcpServers'], current, before, unchangedSinceSetup: false, gatewayText, moved });
 * ```
 */
export function planUndo(input: UndoInput): UndoPlan {
  const { client, mapPath } = input;
  const now = input.current === undefined ? {} : serversIn(input.current, input.file, mapPath);
  const was = input.before === undefined ? {} : serversIn(input.before, input.file, mapPath);
  const ours = now[GATEWAY_ENTRY_NAME];
  const env: Record<string, string> = {};
  if (isRecord(ours) && isRecord(ours.env))
    for (const [key, value] of Object.entries(ours.env)) if (typeof value === 'string') env[key] = value;
  const others = Object.fromEntries(Object.entries(now).filter(([name]) => name !== GATEWAY_ENTRY_NAME));
  const gateway = gatewayServers(input.gatewayText);
  const leftovers: Record<string, Leftover> = {};
  const want: Array<[string, Record<string, unknown>, boolean]> = [];

  for (const [name, moved] of Object.entries(input.moved)) {
    const behind = gateway?.[name];
    let entry = moved.entry;
    if (behind && !isDeepStrictEqual(transportOf(behind), transportOf(moved.upstream))) {
      // Someone changed how the gateway reaches it: the client gets that, with its own other keys.
      const written = client.writeEntry(resolveReferences(behind as ServerEntry, env));
      if (typeof written !== 'string') {
        const own = Object.fromEntries(Object.entries(moved.entry).filter(([key]) => !REACH_KEYS.has(key)));
        entry = { ...own, ...written };
      }
    }
    want.push([name, entry, false]);
  }
  for (const [name, behind] of Object.entries(gateway ?? {})) {
    if (Object.hasOwn(input.moved, name)) continue;
    const written = client.writeEntry(resolveReferences(behind as ServerEntry, env));
    if (typeof written === 'string')
      leftovers[name] = { entry: behind, reason: `${client.title} cannot take it: ${written}` };
    else want.push([name, written, true]);
  }

  const placed: string[] = [];
  const added: string[] = [];
  const entries: Record<string, unknown> = {};
  for (const [name, entry, isNew] of want) {
    if (Object.hasOwn(others, name)) {
      if (!isDeepStrictEqual(others[name], entry))
        leftovers[name] = { entry, reason: `${input.file} has another server named "${name}" now` };
      continue;
    }
    entries[name] = entry;
    placed.push(name);
    if (isNew) added.push(name);
  }

  const asBefore =
    Object.keys(others).length === 0 &&
    placed.length === Object.keys(was).length &&
    placed.every((name) => isDeepStrictEqual(entries[name], was[name]));
  if (asBefore && input.unchangedSinceSetup) return { text: input.before, whole: true, placed, added, leftovers };
  if (asBefore && input.current !== undefined) {
    // The server map goes back as its exact text (comments included); the rest stays as it is now.
    return { text: restoreServerMap(input.current, input.before, mapPath), whole: false, placed, added, leftovers };
  }
  const text = editServers(input.current, mapPath, entries, ours === undefined ? [] : [GATEWAY_ENTRY_NAME]);
  return { text, whole: false, placed, added, leftovers };
}
