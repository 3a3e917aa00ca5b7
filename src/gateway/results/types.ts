/** Shared types of the gateway's result guards (a leaf: imports nothing from its siblings). */

/** What the gateway does with a finding of one kind in a tool's result. */
export type ResultAction = 'annotate' | 'redact' | 'block' | 'off';

/** The kinds of finding a result guard looks for. */
export type ResultFindingKind = 'secret' | 'injection';

/** The action per finding kind; a missing kind takes the default for the tool. */
export interface ResultGuardSettings {
  secrets?: ResultAction;
  injection?: ResultAction;
  /**
   * The time the guard may spend on one result, in milliseconds (default 1000). A result it
   * cannot finish in time is withheld when it comes from outside (an open-world tool or an
   * untrusted server), and passed on labelled `unchecked` otherwise.
   */
  budgetMs?: number;
}

/**
 * A server's `results`: the actions for all its tools, and per tool (a name or glob,
 * matched against the tool's name on its server and against `server__tool`).
 */
export interface ServerResultSettings extends ResultGuardSettings {
  tools?: Record<string, ResultGuardSettings>;
}

/** One finding in a result: its kind, the rule that found it, where; never the matched text itself. */
export interface ResultFinding {
  kind: ResultFindingKind;
  /** The rule that found it, e.g. `@secretlint/secretlint-rule-github` or `description-steering`. */
  rule: string;
  /**
   * `note`: seen but not acted on (text that discusses an order, a README quoting "ignore
   * the previous instructions"): kept for the audit only.
   */
  level?: 'note';
  /** Character range in the text block it was found in, when the rule gives one. */
  range?: readonly [number, number];
}

/** What the guard did to one result. */
export interface GuardedResult<R> {
  result: R;
  findings: ResultFinding[];
  /** The action taken per kind found (absent kinds were not found or were `off`). */
  actions: Partial<Record<ResultFindingKind, ResultAction>>;
}
