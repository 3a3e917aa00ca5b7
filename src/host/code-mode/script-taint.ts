/**
 * Taint inside a script a person allowed. "Allow this script" is given for the plan
 * the person read; untrusted content a later call brings in (an open-world read, a
 * result of an untrusted server) was not in front of them then. So a call that the
 * taint rule asks about (host/taint.ts) is asked about again when the untrusted
 * content behind it arrived after the allow: the answer given before it cannot
 * cover it. Content that was already in the session when the person answered was
 * named in that question (the host's reason says so), and is covered.
 *
 * Which content came after is read from the run's own calls, not from the session's
 * state, so a run that is retried (2026-07-28 `input_required` rounds replay earlier
 * answers) asks the same questions in the same order.
 */
import type { TaintSource } from '../types.js';

/**
 * The calls made since the person last allowed the script.
 *
 * @example
 * ```ts
 * const since = new TaintSinceAllow();
 * since.allowed();
 * since.called('web__fetch_page');
 * since.arrivedSince([{ tool: 'web__fetch_page', server: 'web', labels: ['open-world'] }]); // that source
 * ```
 */
export class TaintSinceAllow {
  #since: Set<string> | undefined;

  /** The person allowed the script (again): what came before is what they saw. */
  allowed(): void {
    this.#since = new Set();
  }

  /** A call ran (its result may have brought content in). `tool` is the catalog's `server__tool`. */
  called(tool: string): void {
    this.#since?.add(tool);
  }

  /** The sources of a taint question that arrived after the last allow (empty: the allow covers it). */
  arrivedSince(taint: readonly TaintSource[] | undefined): TaintSource[] {
    const since = this.#since;
    if (since === undefined || taint === undefined) return [];
    return taint.filter((source) => since.has(source.tool));
  }
}
