/**
 * The guard's searches of one result text made together: where a tool's results are
 * checked for both secrets and injected instructions, one SIMD pass looks for the anchors
 * of both and for invisible characters, so a large text is copied and read once.
 */
import { searchAhead } from './anchor-occurrences.js';
import { INJECTION_ANCHORS } from './injection.js';
import { SIGNAL_ANCHORS } from './injection-signals.js';
import { SECRET_ANCHORS } from './secrets.js';
import { SITE_UNITS } from './unicode-sites.js';
import { VIEW_ANCHORS } from './view-anchors.js';

/**
 * Makes the searches the guard will make of `text` in one pass: the secret rules'
 * anchors, the injection patterns' and signals', the encoded views' and the Unicode sites
 * (one pass whichever of them run: the views and sites serve both kinds).
 *
 * @example
 * ```ts
 * searchResultAhead(text);
 * const found = [...(await findSecrets(text)), ...findInjection(text)];
 * ```
 */
export function searchResultAhead(text: string): void {
  searchAhead(
    text,
    [
      { anchors: SECRET_ANCHORS, caseless: false },
      { anchors: INJECTION_ANCHORS, caseless: true },
      { anchors: SIGNAL_ANCHORS, caseless: true },
      { anchors: VIEW_ANCHORS, caseless: false },
    ],
    // The pass looks for them only in chunks holding a character past U+00FF.
    SITE_UNITS,
  );
}
