/**
 * Where the gateway keeps each downstream conversation's taint (host/taint.ts) between
 * calls. In the 2025 era a conversation is a session (`Mcp-Session-Id`). A 2026-07-28
 * client carries nothing from one call to the next (its `requestState` lives only across
 * the `input_required` rounds of one call), so there the taint is kept for whoever calls:
 * the person the token names, or the one local client (stdio, or HTTP without sign-in).
 * That joins all of a person's conversations in one taint, which errs toward asking,
 * never toward letting an action through unseen.
 *
 * Kept in this process, for as long as the gateway runs, with the least recently used
 * conversations forgotten past a bound (an unbounded map would grow with every session).
 */
import { createHash } from 'node:crypto';
import { createTaintSession } from '../host/taint.js';
import type { TaintSession } from '../host/types.js';
import type { ToolContext } from '../tool/types.js';
import { principalKey } from '../transports/http/authorizer.js';

/** `ctx.state` key under which a profile's endpoint puts its own taint setting (endpoints.ts). */
export const TAINT_MODE_STATE = 'candor.gateway.taintMode';

/** Conversations remembered at once; the least recently used is forgotten past this. */
const MAX_SESSIONS = 10_000;

/**
 * The taint of each downstream conversation.
 *
 * @example
 * ```ts
 * const sessions = new TaintSessions();
 * await routed.call(tool.name, args, { taint: sessions.of(ctx) });
 * ```
 */
export class TaintSessions {
  readonly #sessions = new Map<string, TaintSession>();
  readonly #max: number;

  constructor(options: { max?: number } = {}) {
    this.#max = options.max ?? MAX_SESSIONS;
  }

  /** The conversation a call belongs to (made untainted on first use). */
  of(ctx: Pick<ToolContext, 'session' | 'auth'>): TaintSession {
    const key = keyOf(ctx);
    let session = this.#sessions.get(key);
    if (session !== undefined) {
      // Map order is insertion order: moving the key to the end keeps the map least recently used first.
      this.#sessions.delete(key);
    } else {
      session = createTaintSession();
      if (this.#sessions.size >= this.#max) this.#sessions.delete(this.#sessions.keys().next().value as string);
    }
    this.#sessions.set(key, session);
    return session;
  }

  /** How many conversations are remembered. */
  get size(): number {
    return this.#sessions.size;
  }
}

function keyOf(ctx: Pick<ToolContext, 'session' | 'auth'>): string {
  if (ctx.session !== undefined) return `session ${ctx.session.id}`;
  if (ctx.auth === undefined) return 'person (local)';
  // Hashed: no one's name is held as a key.
  return `person ${createHash('sha256').update(principalKey(ctx.auth)).digest('base64url')}`;
}
