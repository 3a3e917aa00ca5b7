/**
 * The shapes code mode's files share: the limits a script runs under, what a
 * run reports, and the plan a person reads before a script may change anything.
 */

/** The limits one script runs under; every one has a default. */
export interface ScriptLimits {
  /** The script's heap, in bytes (default 32 MiB). */
  memoryBytes?: number;
  /** The script's stack, in bytes (default 256 KiB): deep recursion fails instead of crashing. */
  stackBytes?: number;
  /** Time the interpreter may spend running the script's own code, in ms (default 2 000). */
  cpuMs?: number;
  /**
   * Wall-clock time for the whole run, tool calls included, in ms (default 120 000);
   * the time a person takes to answer the script's question is not counted.
   */
  deadlineMs?: number;
  /** The returned value as JSON plus the console output, in bytes (default 64 KiB). */
  outputBytes?: number;
  /** Tool calls one run may make (default 100). */
  maxCalls?: number;
}

/** The limits with their defaults filled in. */
export type ResolvedLimits = Required<ScriptLimits>;

/** What a finished run hands back. */
export interface ScriptOutcome {
  /** The script's return value as JSON (`undefined` when it returned nothing). */
  json: string | undefined;
  /** What the script wrote with `console.log` / `console.error`, one entry per call. */
  logs: string[];
}

/** One call a script made (or may make), as the plan shows it. */
export interface PlannedCall {
  tool: string;
  /** read-only, additive, destructive; open world or not. */
  effect: 'read' | 'additive' | 'destructive';
  openWorld: boolean;
}

/** What a person reads when a script first wants to change something. */
export interface ScriptPlan {
  /** The calls made so far, in order. */
  made: Array<PlannedCall & { outcome: string }>;
  /** The call waiting for the answer. */
  next: PlannedCall & { args: Record<string, unknown> };
  /** Calls the script's text names and has not made yet (known ahead from the source). */
  ahead: PlannedCall[];
  /** True when the script reaches tools by computed names, so the calls ahead may be more. */
  dynamic: boolean;
}
