/**
 * The guard's searches of one result text made together: where a tool's results are
 * checked for both secrets and injected instructions, one SIMD pass looks for the anchors
 * of both and for invisible characters, so a large text is copied and read once.
 */
import { INVISIBLE_FIRST_UNITS } from '../../lint/rules/steering.js';
import { searchAhead } from './anchor-occurrences.js';
import { INJECTION_ANCHORS } from './injection.js';
import { SECRET_ANCHORS } from './secrets.js';

/**
 * Makes the searches `findSecrets` and `findInjection` will make of `text` in one pass
 * (nothing to share when only one of them runs).
 *
 * @example
 * ```ts
 * searchResultAhead(text, { secrets: true, injection: true });
 * const found = [...(await findSecrets(text)), ...findInjection(text)];
 * ```
 */
export function searchResultAhead(text: string, run: { secrets: boolean; injection: boolean }): void {
  if (!run.secrets || !run.injection) return;
  searchAhead(
    text,
    [
      { anchors: SECRET_ANCHORS, caseless: false },
      { anchors: INJECTION_ANCHORS, caseless: true },
    ],
    // The pass looks for them only in chunks holding a character past U+00AC.
    INVISIBLE_FIRST_UNITS,
  );
}
