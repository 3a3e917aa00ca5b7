/**
 * secretlint's recommended rules, run directly on the spans of a text that could hold
 * what they look for. Each rule is called as secretlint calls it (`create(context)`,
 * then `file(source)`), without the linter around it: no per-call configuration, message
 * formatting or file reads, and without the preset's comment filter, so text inside a
 * result cannot switch the check off with a `secretlint-disable` comment.
 */
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import { type Anchor, fingerprintEndingWith, isSpace, SPACE } from './anchor.js';
import type { ResultFinding } from './types.js';

type RuleCreator = (typeof presetRules)[number];
type RuleContext = Parameters<RuleCreator['create']>[0];
type RuleSource = Parameters<NonNullable<ReturnType<RuleCreator['create']>['file']>>[0];

const PREFIX = '@secretlint/secretlint-rule-';

// Rules that scan text for credentials; the preset's comment filter is not one, and the
// GCP rule only reads `.json` and `.p12` files (its keys are PEM blocks the private-key
// rule sees in any text).
const SCANNERS = new Map(
  presetRules
    .filter((rule) => rule.meta.type === 'scanner' && !rule.meta.id.endsWith('-gcp'))
    .map((rule) => [rule.meta.id.slice(PREFIX.length), rule]),
);

// Whitespace (as `\s`), "/" and ":" end a URL's user; whitespace and "/" its password.
const SLASH = 47;
const COLON = 58;
const AT = 64;

/**
 * `[^\s/:]{1,256}:[^\s/]{1,256}@` at `at` (a user, ":", a password and "@"), tested a
 * character at a time: a megabyte of logs holds a thousand URLs, nearly all without one.
 */
function userAndPassword(text: string, at: number): boolean {
  let i = at;
  const userEnd = Math.min(text.length, at + 257);
  for (; i < userEnd; i++) {
    const code = text.charCodeAt(i);
    if (code === COLON || code === SLASH || isSpace(code)) break;
  }
  if (i === at || i > at + 256 || text.charCodeAt(i) !== COLON) return false;
  const from = ++i;
  const passwordEnd = Math.min(text.length, from + 257);
  for (; i < passwordEnd; i++) {
    const code = text.charCodeAt(i);
    // The password may hold "@" too: one after at least one character ends a match.
    if (code === AT && i > from) return true;
    if (code === SLASH || isSpace(code)) return false;
  }
  return false;
}

/**
 * The literals each preset rule's matches contain, read from the rules' patterns: a token
 * prefix, the `://` of a URL with a password in it, the name of an AWS secret key. Where
 * a literal starts with a common letter, a later part of it stands for it (a search is
 * as slow as its first character is common) and the span reaches back over the rest.
 * `secret-rules.test.ts` checks, for a sample of every rule, that the spans find what
 * the whole-text rules find.
 */
const PRESET_LITERALS: readonly Anchor[] = [
  // URLs with a user and password in them (user:password@ and database connection
  // strings; the rules report nothing without both): right after the scheme's "://", a
  // user without whitespace, "/" or ":", then ":", a password without whitespace or "/",
  // and "@". A password may hold quotes, so these spans reach a fixed length past it.
  {
    literal: '://',
    rules: ['basicauth', 'database-connection-string'],
    after: 1024,
    followedBy: userAndPassword,
  },
  // npm's https://…:x-oauth-basic@github.com/ (up to 256 characters before the ":").
  { literal: ':x-oauth-basic@', rules: ['npm'], before: 272 },
  // https://hooks.slack.com/services/T…/B…/…
  { literal: 'slack.com/', rules: ['slack'], before: 96, fingerprintAt: 4 },
  { literal: '_authToken=', rules: ['npm'], fingerprintAt: 0 },
  { literal: 'npm_', rules: ['npm'] },
  { literal: 'xox', rules: ['slack'] },
  { literal: 'xapp-', rules: ['slack'] },
  // Both OpenAI key forms hold "T3BlbkFJ" after up to 90 characters of prefix.
  { literal: 'BlbkFJ', rules: ['openai'], before: 200 },
  { literal: 'k-ant-api0', rules: ['anthropic'] },
  { literal: 'gsk_', rules: ['groq'] },
  { literal: 'hf_', rules: ['huggingface'] },
  { literal: 'lin_api_', rules: ['linear'] },
  { literal: 'ntn_', rules: ['notion'] },
  { literal: 'PRIVATE KEY', rules: ['privatekey'], after: 16 * 1024 },
  { literal: 'SG.', rules: ['sendgrid'] },
  ...['shppa_', 'shpca_', 'shpat_', 'shpss_'].map((literal) => ({ literal, rules: ['shopify'] })),
  { literal: 'k_live_', rules: ['stripe'] },
  { literal: 'k_test_', rules: ['stripe'] },
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'].map((literal) => ({ literal, rules: ['github'] })),
  { literal: 'glpat-', rules: ['gitlab'] },
  { literal: 'glc_', rules: ['grafana'] },
  { literal: 'glsa_', rules: ['grafana'] },
  { literal: 'ops_ey', rules: ['1password'] },
  // hvs., hvb., hvr.
  { literal: 'hv', rules: ['hashicorp-vault'] },
  ...['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'].map((literal) => ({ literal, rules: ['vercel'] })),
  { literal: 'dapi', rules: ['databricks'] },
  { literal: 'dckr_pat_', rules: ['docker'] },
  { literal: 'figd_', rules: ['figma'] },
  ...['cfk_', 'cfut_', 'cfat_'].map((literal) => ({ literal, rules: ['cloudflare'] })),
  // "ey-" is in ordinary text 12 times per MB, "key" 532 times.
  { literal: 'key-', rules: ['tailscale'], fingerprintAt: 1 },
  // (AWS|aws|Aws)?_?(SECRET|secret|Secret)_?(ACCESS|access|Access)_?(KEY|key|Key): the
  // key's name ends in one of these, and the rule's `["']?\s*(:|=>|=)\s*["']?` and 40
  // key characters follow it.
  ...['KEY', 'key', 'Key'].map((literal) => ({
    literal,
    rules: ['aws'],
    before: 32,
    after: 96,
    followedBy: /["']?\s*(?::|=>|=)\s*["']?[A-Za-z0-9/+=]{40}/y,
    // A quote, `:`, `=` or whitespace right after the name, as the SIMD pass sees it.
    ...fingerprintEndingWith(literal, `"':=${SPACE}`),
  })),
];

/**
 * The anchors of the rules the installed preset has (its releases that support Node 20
 * lack a few; the guard's own rules cover those, extra-secret-rules.ts).
 */
export const PRESET_ANCHORS: readonly Anchor[] = PRESET_LITERALS.filter((anchor) =>
  anchor.rules.some((rule) => SCANNERS.has(rule)),
);

/** The preset rules this guard runs, by short name (`github`, `aws`...). */
export const PRESET_RULES: ReadonlySet<string> = new Set(SCANNERS.keys());

// The rules report through a translator; the guard never shows a rule's message (it would
// quote the secret), only its rule id and range.
const translator = (() => (messageId: string) => ({ message: messageId, messageId })) as never;

/**
 * Run the named preset rules on one span of a text; ranges are in the whole text.
 *
 * @example
 * ```ts
 * await runPresetRules(text, { start: 0, end: text.length, rules: new Set(['github']) });
 * ```
 */
export async function runPresetRules(
  text: string,
  span: { start: number; end: number; rules: ReadonlySet<string> },
): Promise<ResultFinding[]> {
  const content = text.slice(span.start, span.end);
  const found: ResultFinding[] = [];
  for (const name of span.rules) {
    const rule = SCANNERS.get(name);
    if (rule === undefined) continue;
    const context: RuleContext = {
      sharedOptions: {},
      createTranslator: translator,
      ignore: () => {},
      report: ({ range }) => {
        found.push({ kind: 'secret', rule: rule.meta.id, range: [span.start + range[0], span.start + range[1]] });
      },
    };
    // The rules read `content` and `ext` of their source; the rest of secretlint's source
    // object (locations for messages) is never reached on this path.
    const source = { content, ext: '.txt', contentType: 'text', hasBOM: false } as unknown as RuleSource;
    // The scanners are synchronous; a rule that ever returns a promise is awaited.
    const pending = rule.create(context, {}).file?.(source);
    if (pending !== undefined) await pending;
  }
  return found;
}
