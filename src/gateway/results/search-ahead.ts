/**
 * The guard's searches of one result text made together: where a tool's results are
 * checked for both secrets and injected instructions, one SIMD pass looks for the anchors
 * of both and for invisible characters, so a large text is copied and read once.
 */
import { searchAhead, sharePlan } from './anchor-occurrences.js';
import { INJECTION_ANCHORS } from './injection.js';
import { SIGNAL_ANCHORS } from './injection-signals.js';
import { SECRET_ANCHORS } from './secrets.js';
import { SITE_UNITS } from './unicode-sites.js';
import { VIEW_ANCHORS } from './view-anchors.js';

// Sets always searched together share one pass's plan: the encoded views' literals go with
// the secrets' (both exact in case), the injection signals' with the patterns' (both caseless).
sharePlan([SECRET_ANCHORS, VIEW_ANCHORS]);
sharePlan([INJECTION_ANCHORS, SIGNAL_ANCHORS]);

/**
 * Makes the searches the guard will make of `text` in one pass: the secret rules'
 * anchors and the encoded views' (always: the views serve both kinds), the injection
 * patterns' and signals' when `injection` is searched for, and the Unicode sites.
 *
 * @example
 * ```ts
 * searchResultAhead(text, { injection: true });
 * const found = [...(await findSecrets(text)), ...findInjection(text)];
 * ```
 */
export function searchResultAhead(text: string, run: { injection: boolean }): void {
  searchAhead(
    text,
    [
      { anchors: SECRET_ANCHORS, caseless: false },
      { anchors: VIEW_ANCHORS, caseless: false },
      ...(run.injection
        ? [
            { anchors: INJECTION_ANCHORS, caseless: true },
            { anchors: SIGNAL_ANCHORS, caseless: true },
          ]
        : []),
    ],
    // The pass looks for them only in chunks holding a character past U+00FF.
    SITE_UNITS,
  );
}
