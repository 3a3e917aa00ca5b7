/** Shared types of the gateway's call hooks (a leaf: imports nothing from its siblings). */
import type { CallToolResult } from '../../tool/types.js';

/** What the gateway does when a hook does not answer in time or answers badly. */
export type HookFailure = 'open' | 'closed';

/** The `hooks` of a gateway config or of one server in it. */
export interface HookSettings {
  /** Asked before a call goes upstream: allow it, deny it, or answer in its place. */
  beforeCall?: string;
  /** Asked with the result before it goes back: allow it, deny it, or replace it. */
  afterCall?: string;
  /** How long a hook has to answer, in milliseconds (default 2,000). */
  timeoutMs?: number;
  /** `closed` (default): a call whose hook fails is refused; `open`: it goes on as if allowed. */
  failure?: HookFailure;
  /** Allow `http:` URLs to hosts other than loopback (default false: https, or http to loopback only). */
  allowRemoteHttp?: boolean;
}

/**
 * The longest a hook may take, in milliseconds. A hook holds its call (and the person
 * waiting on it) while it thinks; past a minute it is down, not slow. Timers cannot be
 * longer than 2^31-1 ms anyway: a longer one fires at once, failing every hook.
 */
export const MAX_HOOK_TIMEOUT_MS = 60_000;

/** The JSON document posted to a hook. */
export interface HookDocument {
  hook: 'beforeCall' | 'afterCall';
  /** Who made the call: the signed-in subject or client id; absent without sign-in. */
  person?: string;
  server: string;
  /** The tool's name as the gateway offers it (`server__tool`) and as the server names it. */
  tool: string;
  serverTool: string;
  /** The hints the gateway holds for the tool (the server's claims, overrides or spec defaults). */
  hints: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  arguments: Record<string, unknown>;
  /** afterCall only: the result as it would go back (after the result guards). */
  result?: CallToolResult;
}

/** A hook's answer. */
export type HookAnswer =
  | { decision: 'allow' }
  | { decision: 'deny'; reason: string }
  | { decision: 'replace'; result: CallToolResult };

/** What a hook step came to, for the audit: the answer, or how the failure was handled. */
export type HookDecision = 'allow' | 'deny' | 'replace' | 'failed-open' | 'failed-closed';
