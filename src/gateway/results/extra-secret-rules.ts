/**
 * Credential formats the secretlint preset has no rule for, to reach the coverage of the
 * most-used scanners' default sets (no maintained package of those rules is published on
 * npm): cloud and provider keys with a fixed prefix, URLs with a password (any scheme, any
 * case, an empty user too), `password:` assignments, bearer tokens, Azure connection
 * strings, PGP private key blocks. Each expression has bounded repeats only and is run on
 * the spans around its prefix (see `spans.ts`). Keys that documentation prints as examples
 * (AWS's `AKIAIOSFODNN7EXAMPLE`) are not secrets.
 */
import { type Anchor, type Gate, isSpace } from './anchor.js';
import type { ResultFinding } from './types.js';

interface ExtraRule {
  /** The rule's name in findings (`extra/…`). */
  name: string;
  /** Literals every match holds (case-sensitive). */
  literals: readonly string[];
  /** The match; the secret is group 1 when there is one, else the whole match. */
  re: RegExp;
  /** How far before the literal a match can start (default 64). */
  before?: number;
  after?: number;
  followedBy?: Gate;
  /** A value that passes the expression but is not a secret. */
  reject?: (value: string) => boolean;
}

const TOKEN = 'A-Za-z0-9_-';

/** A value that names itself, points elsewhere or is a placeholder, not a password. */
function placeholder(value: string): boolean {
  return (
    /^[$<{%[(*]|^(?:x+|\*+|\.+|-+)$|^(?:null|none|nil|true|false|undefined|required|optional|string|password|secret|changeme|example|your[_-]?\w*)$/i.test(
      value,
    ) ||
    // A reference to a variable or property (`this.password`, `config.db.pass`, `getPassword()`).
    /^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+$|\(/.test(value) ||
    // One kind of character only: a word, or a number.
    !/[^a-z]/.test(value) ||
    !/[^A-Z]/.test(value) ||
    !/\D/.test(value)
  );
}

const RULES: readonly ExtraRule[] = [
  {
    name: 'aws-access-key-id',
    literals: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'],
    re: /(?<![A-Z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Z0-9])/g,
    before: 0,
  },
  { name: 'google-api-key', literals: ['AIza'], re: /AIza[\w-]{35}(?![\w-])/g, before: 0 },
  { name: 'google-oauth-secret', literals: ['GOCSPX-'], re: /GOCSPX-[\w-]{28}/g, before: 0 },
  { name: 'google-oauth-token', literals: ['ya29.'], re: /ya29\.[\w-]{30,512}/g, before: 0 },
  {
    name: 'anthropic-key',
    literals: ['sk-ant-'],
    re: new RegExp(`sk-ant-[a-z]{3,8}\\d\\d-[${TOKEN}]{32,160}`, 'g'),
    before: 0,
    after: 200,
  },
  {
    name: 'openai-key',
    literals: ['sk-proj-', 'sk-svcacct-', 'sk-admin-'],
    re: new RegExp(`sk-(?:proj|svcacct|admin)-[${TOKEN}]{40,200}`, 'g'),
    before: 0,
    after: 220,
  },
  {
    name: 'digitalocean-token',
    literals: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    re: /do[por]_v1_[a-f0-9]{64}/g,
    before: 0,
    after: 80,
  },
  {
    name: 'azure-storage-key',
    literals: ['AccountKey=', 'SharedAccessKey=', 'AccessKey='],
    re: /(?:Account|SharedAccess|)Key=([A-Za-z0-9+/]{20,100}={0,2})/g,
    before: 16,
    after: 120,
  },
  { name: 'azure-ad-client-secret', literals: ['Q~'], re: /[\w~.]{3}\dQ~[\w~.-]{31,34}/g, before: 4, after: 40 },
  {
    name: 'bearer-token',
    literals: ['Bearer', 'bearer', 'BEARER'],
    followedBy: /\s/y,
    re: /\b[Bb](?:earer|EARER)\s{1,8}([A-Za-z0-9\-._~+/]{16,2048}=*)/g,
    before: 0,
    after: 2100,
    reject: (v) => !/\d/.test(v) || !/[A-Za-z]/.test(v),
  },
  {
    name: 'password-assignment',
    literals: ['assword', 'ASSWORD', 'asswd', 'ASSWD', 'pwd', 'PWD'],
    re: /(?<![A-Za-z])(?:[Pp]ass(?:word|wd)?|PASS(?:WORD|WD)?|pwd|PWD)(?![a-z])(?:\\?["'])?[ \t]{0,8}[:=][ \t]{0,8}(?:\\?["'])?([^\s"'`,;<>\\]{6,128})/g,
    before: 2,
    after: 160,
    followedBy: /[A-Za-z]{0,4}(?:\\?["'])?[ \t]{0,8}[:=]/y,
    reject: placeholder,
  },
  {
    name: 'pgp-private-key',
    literals: ['PGP PRIVATE KEY BLOCK'],
    re: /-----BEGIN PGP PRIVATE KEY BLOCK-----[\s\S]{1,16384}?-----END PGP PRIVATE KEY BLOCK-----/g,
    before: 11,
    after: 16 * 1024 + 64,
  },
  {
    name: 'url-password',
    literals: ['://'],
    re: /\b[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s/:@]{0,256}:([^\s/@]{1,256})@/g,
    before: 40,
    after: 520,
    followedBy: passwordInUrl,
    reject: placeholder,
  },
  ...(
    [
      [
        'gitlab-token',
        ['glptt-', 'gldt-', 'glrt-', 'glcbt-', 'glimt-', 'glagent-', 'gloas-', 'glsoat-', 'glffct-'],
        `gl[a-z]{2,6}-[${TOKEN}]{20,64}`,
      ],
      ['vault-token', ['hvs.', 'hvb.', 'hvr.'], `hv[sbr]\\.[${TOKEN}]{24,200}`],
      [
        'stripe-key',
        ['rk_live_', 'rk_test_', 'sk_live_', 'sk_test_', 'pk_live_'],
        '[rsp]k_(?:live|test)_[A-Za-z0-9]{20,247}',
      ],
      ['pypi-token', ['pypi-AgE'], `pypi-AgE[${TOKEN}]{50,400}`],
      ['atlassian-token', ['ATATT3'], `ATATT3[\\w=-]{150,300}`],
      ['postman-key', ['PMAK-'], 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}'],
      ['newrelic-key', ['NRAK-', 'NRII-', 'NRJS-'], 'NR(?:AK|II|JS)-[A-Za-z0-9]{27}'],
      ['sentry-token', ['sntrys_', 'sntryu_'], 'sntry[su]_[A-Za-z0-9+/=_]{60,300}'],
      ['telegram-bot-token', [':AA'], `\\d{8,10}:AA[${TOKEN}]{33}`],
      ['doppler-token', ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.'], 'dp\\.(?:pt|st|ct|sa)\\.[A-Za-z0-9]{40,44}'],
      ['dynatrace-token', ['dt0c01.'], 'dt0c01\\.[A-Z0-9]{24}\\.[A-Z0-9]{64}'],
      ['pulumi-token', ['pul-'], 'pul-[a-f0-9]{40}'],
      ['flyio-token', ['fo1_', 'FlyV1 '], `(?:fo1_[${TOKEN}]{43}|FlyV1 fm\\d_[A-Za-z0-9+/=_]{100,})`],
      ['planetscale-token', ['pscale_tkn_', 'pscale_pw_', 'pscale_oauth_'], `pscale_(?:tkn|pw|oauth)_[\\w.=-]{32,64}`],
      ['age-secret-key', ['AGE-SECRET-KEY-1'], 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}'],
      ['alibaba-access-key', ['LTAI'], '\\bLTAI[A-Za-z0-9]{20}\\b'],
      ['clojars-token', ['CLOJARS_'], 'CLOJARS_[a-z0-9]{60}'],
      ['duffel-token', ['duffel_test_', 'duffel_live_'], `duffel_(?:test|live)_[\\w=-]{43}`],
      ['easypost-key', ['EZAK', 'EZTK'], 'EZ[AT]K[a-zA-Z0-9]{54}'],
      ['flutterwave-key', ['FLWSECK', 'FLWPUBK'], 'FLW(?:SEC|PUB)K(?:_TEST)?-[a-h0-9]{32}-X'],
      ['frameio-token', ['fio-u-'], `fio-u-[\\w=-]{64}`],
      ['terraform-token', ['.atlasv1.'], `[a-z0-9]{14}\\.atlasv1\\.[a-z0-9\\-_=]{60,70}`],
      ['heroku-key', ['HRKU-'], `HRKU-[${TOKEN}]{20,80}`],
      ['jfrog-key', ['AKCp'], 'AKCp[A-Za-z0-9]{69}'],
      ['sonarqube-token', ['squ_', 'sqp_', 'sqa_'], 'sq[upa]_[a-f0-9]{40}'],
      ['prefect-key', ['pnu_'], 'pnu_[a-zA-Z0-9]{36}'],
      ['readme-key', ['rdme_'], 'rdme_[a-z0-9]{70}'],
      ['rubygems-key', ['rubygems_'], 'rubygems_[a-f0-9]{48}'],
      ['sendinblue-key', ['xkeysib-'], 'xkeysib-[a-f0-9]{64}-[a-zA-Z0-9]{16}'],
      ['shippo-token', ['shippo_live_', 'shippo_test_'], 'shippo_(?:live|test)_[a-f0-9]{40}'],
      ['typeform-token', ['tfp_'], `tfp_[\\w.-]{59}`],
      ['infracost-key', ['ico-'], 'ico-[a-zA-Z0-9]{32}'],
      ['settlemint-token', ['sm_pat_', 'sm_aat_', 'sm_sat_'], 'sm_[pas]at_[a-zA-Z0-9]{16}'],
      ['square-token', ['sq0atp-', 'sq0csp-'], `sq0(?:atp|csp)-[${TOKEN}]{22,60}`],
      ['mailgun-key', ['key-'], '\\bkey-[0-9a-f]{32}\\b'],
      ['mailchimp-key', ['-us'], '\\b[0-9a-f]{32}-us\\d{1,2}\\b'],
      [
        'discord-webhook',
        ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'],
        `discord(?:app)?\\.com/api/webhooks/\\d{17,20}/[${TOKEN}]{60,68}`,
      ],
      [
        'teams-webhook',
        ['webhook.office.com/'],
        `webhook\\.office\\.com/webhookb2/[a-z0-9@-]{36,90}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9-]{36}`,
      ],
      ['cloudflare-origin-ca', ['v1.0-'], 'v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}'],
      // Cloudflare's prefixed API tokens: 40 characters, then a CRC32 as 8 hex digits.
      [
        'cloudflare-token',
        ['cfk_', 'cfut_', 'cfat_'],
        '\\b(?:cfk|cfut|cfat)_[A-Za-z0-9]{40}[0-9a-f]{8}(?![A-Za-z0-9])',
      ],
      // Tailscale keys: tskey-<kind>-<id>-<secret>.
      ['tailscale-key', ['tskey-'], '\\btskey-[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}(?![0-9A-Za-z_])'],
      ['mapbox-token', ['sk.eyJ'], `sk\\.eyJ[${TOKEN}]{20,200}\\.[${TOKEN}]{20,64}`],
      ['slack-config-token', ['xoxe.xox', 'xoxe-'], `xoxe(?:\\.xox[bp])?-\\d-[A-Z0-9]{146,170}`],
    ] as const
  ).map(([name, literals, source]) => ({
    name,
    literals,
    re: new RegExp(source, 'g'),
    ...(name === 'mailchimp-key' ? { followedBy: /\d/y } : {}),
    before: name === 'terraform-token' ? 16 : name === 'telegram-bot-token' ? 12 : name === 'mailchimp-key' ? 34 : 0,
    after: 420,
  })),
];

/** `[^\s/:@]{0,256}:[^\s/@]{1,256}@` right after a `://`: a URL with a password, its user perhaps empty. */
function passwordInUrl(text: string, at: number): boolean {
  let i = at;
  const userEnd = Math.min(text.length, at + 257);
  for (; i < userEnd; i++) {
    const code = text.charCodeAt(i);
    if (code === 58 || code === 47 || code === 64 || isSpace(code)) break;
  }
  if (text.charCodeAt(i) !== 58) return false;
  const from = ++i;
  const end = Math.min(text.length, from + 257);
  for (; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 64) return i > from;
    if (code === 47 || isSpace(code)) return false;
  }
  return false;
}

/** The anchors of these rules, for the prefilter. */
export const EXTRA_ANCHORS: readonly Anchor[] = RULES.flatMap((rule) =>
  rule.literals.map((literal) => ({
    literal,
    rules: [`extra/${rule.name}`],
    before: rule.before ?? 64,
    after: rule.after ?? 64,
    ...(rule.followedBy ? { followedBy: rule.followedBy } : {}),
  })),
);

const BY_NAME = new Map(RULES.map((rule) => [`extra/${rule.name}`, rule]));

/**
 * Whether a value is a key documentation prints as an example, or a placeholder: it says
 * EXAMPLE, or is one character repeated, or a long run of x or 0.
 *
 * @example
 * ```ts
 * isExampleKey('AKIAIOSFODNN7EXAMPLE'); // true
 * ```
 */
export function isExampleKey(value: string): boolean {
  return /example|x{8}|X{8}|0{12}|1234567890|abcdefghij/i.test(value) || /^(.)\1+$/.test(value);
}

/**
 * The findings of these rules in a span's text, for the rules the span was made for.
 *
 * @example
 * ```ts
 * extraSecrets('id AKIA' + 'Q'.repeat(16), new Set(['extra/aws-access-key-id']));
 * ```
 */
export function extraSecrets(part: string, rules: ReadonlySet<string>): ResultFinding[] {
  const found: ResultFinding[] = [];
  for (const name of rules) {
    const rule = BY_NAME.get(name);
    if (rule === undefined) continue;
    rule.re.lastIndex = 0;
    for (const m of part.matchAll(rule.re)) {
      const value = m[1] ?? m[0];
      if (isExampleKey(value) || rule.reject?.(value)) continue;
      const start = m.index + m[0].length - value.length;
      found.push({ kind: 'secret', rule: name, range: [start, start + value.length] });
    }
  }
  return found;
}
