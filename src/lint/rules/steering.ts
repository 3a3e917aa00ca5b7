/**
 * Text that tries to steer the model rather than describe the tool ("tool poisoning"):
 * override phrases, `<IMPORTANT>` blocks, concealment from the user, instructions aimed
 * at other tools, and characters a person reviewing the tool cannot see.
 */

import { isRecord } from '../../util/is-record.js';
import { literalScanner } from '../../util/literal-scan.js';
import { hasWideCharacters } from '../../util/wide-characters.js';
import { toolLabel } from '../manifest.js';
import type { LintRule, LintTool } from '../types.js';

/** Every human-language string of a tool a model reads, with where it is. */
export function toolTexts(tool: LintTool): Array<{ where: string; text: string }> {
  const out: Array<{ where: string; text: string }> = [];
  if (tool.description !== undefined) out.push({ where: 'description', text: tool.description });
  if (tool.title !== undefined) out.push({ where: 'title', text: tool.title });
  if (typeof tool.annotations.title === 'string')
    out.push({ where: 'annotations.title', text: tool.annotations.title });
  const visit = (schema: unknown, path: string, depth: number): void => {
    if (!isRecord(schema) || depth > 8) return;
    for (const key of ['description', 'title'] as const) {
      if (typeof schema[key] === 'string') out.push({ where: `${path}.${key}`, text: schema[key] as string });
    }
    if (Array.isArray(schema.enum)) {
      schema.enum.forEach((v, i) => {
        if (typeof v === 'string') out.push({ where: `${path}.enum[${i}]`, text: v });
      });
    }
    for (const key of ['properties', '$defs', 'definitions'] as const) {
      const group = schema[key];
      if (isRecord(group))
        for (const [name, sub] of Object.entries(group)) visit(sub, `${path}.${key}.${name}`, depth + 1);
    }
    for (const key of ['items', 'additionalProperties', 'not'] as const)
      visit(schema[key], `${path}.${key}`, depth + 1);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const list = schema[key];
      if (!Array.isArray(list)) continue;
      list.forEach((sub, i) => {
        visit(sub, `${path}.${key}[${i}]`, depth + 1);
      });
    }
  };
  visit(tool.inputSchema, 'inputSchema', 0);
  visit(tool.outputSchema, 'outputSchema', 0);
  return out;
}

/** One form of steering text, and how the finding names it. */
export interface SteeringPattern {
  kind: string;
  re: RegExp;
}

const OTHER_TOOLS = 'text aimed at other tools';
const SECRETS = 'a request for secrets';
/** A match that is only a secret file's name (not a phrase that asks for it). */
const SECRET_FILE = /^(?:~\/\.ssh|id_rsa|\.aws\/credentials|mcp\.json)$/i;
/** Verbs that send or hand over a file: what turns the name of a secret file into a request for it. */
const SENDING =
  /\b(?:send|upload|post|pass|include|attach|share|forward|email|exfiltrat\w*|leak|paste|contents\s+of)\b/i;

/**
 * Phrases that address the model instead of describing the tool, by a short name. The
 * gateway's result guards run them one by one on the parts of a result that could hold
 * them.
 */
export const STEERING_PATTERNS = {
  override: {
    kind: 'an instruction override',
    re: /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|other|system)\s+(?:instructions?|prompts?|rules|messages|directions|guidelines)/i,
  },
  hiddenTag: {
    kind: 'a hidden-instruction tag',
    re: /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin|assistant|im_start|sys)\b[^>]*>/i,
  },
  htmlComment: { kind: 'an HTML comment', re: /<!--[\s\S]*?-->/ },
  concealment: {
    kind: 'concealment from the user',
    re: /\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention|reveal|show|notify|alert)\b[^.]{0,30}\buser\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+the\s+user\b|\bthe\s+user\s+(?:must|should)\s+not\s+(?:know|see|be\s+told)\b/i,
  },
  otherTools: {
    kind: OTHER_TOOLS,
    re: /\b(?:when|whenever|before|after|instead\s+of)\b[^.]{0,40}\b(?:using|calling|invoking|running)\s+(?:(?:any|another|all|every)\s+(?:other\s+)?tools?|other\s+tools?|the\s+[\w.-]*[_.-][\w.-]*\s+tool)\b|\b(?:all|any|every)\s+other\s+tools?\b[^.]{0,40}\b(?:must|should|shall)\b/i,
  },
  secretsRequest: {
    kind: SECRETS,
    re: /(?:~\/\.ssh|\bid_rsa\b|\.aws\/credentials|\bmcp\.json\b|\bprivate\s+keys?\b[^.]{0,40}\b(?:pass|send|include|read)\b|\b(?:pass|send|include|read)\b[^.]{0,40}\b(?:api\s+keys?|passwords?|tokens?|credentials)\b\s+(?:as|in|into)\s+the\s+\w+\s+(?:parameter|argument|field))/i,
  },
} as const satisfies Record<string, SteeringPattern>;

const STEERING: readonly SteeringPattern[] = Object.values(STEERING_PATTERNS);

/** The sentence of `text` around `index` (descriptions are often wrapped: a single line break does not end one). */
function sentenceAt(text: string, index: number): string {
  const before = text.slice(0, index);
  const start = Math.max(...[/[.!?]\s/g, /\n\s*\n/g].map((re) => [...before.matchAll(re)].at(-1)?.index ?? -1)) + 1;
  const end = text.slice(index).search(/[.!?](?:\s|$)|\n\s*\n/);
  return text
    .slice(start, end === -1 ? undefined : index + end)
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A sentence that says what this tool is for and when to use it ("Use this to find the
 * index names before calling other tools") sequences the tool's own use: weaker evidence
 * of steering than an order about other tools, so it is reported one level lower. An
 * order (always, must, first…) or a sentence about the other tools stays firm.
 */
function ownUseSentence(sentence: string): boolean {
  return (
    /^(?:use|call|run|invoke)\s+(?:this|it)\b(?:\s+tool)?\s+to\b/i.test(sentence) &&
    !/\b(?:always|must|never|first|only|every\s+time|required|mandatory|instead)\b/i.test(sentence)
  );
}

export const descriptionSteering: LintRule = {
  id: 'description-steering',
  severity: 'error',
  summary: 'Descriptions describe the tool; they do not give the model orders.',
  explanation:
    'Descriptions go into the model\'s context verbatim, and the user rarely reads them. "Tool poisoning" hides instructions there: "ignore previous instructions", <IMPORTANT> blocks, "do not tell the user", orders about how to use *other* tools, requests to pass ~/.ssh keys as arguments. The spec tells clients to treat tool descriptions as untrusted; this rule catches the common forms before a user installs the server.',
  *check({ tools }) {
    for (const tool of tools) {
      for (const { where, text } of toolTexts(tool)) {
        for (const { kind, re } of STEERING) {
          const m = re.exec(text);
          if (!m) continue;
          // A secret file named in passing (a list of paths the tool refuses) asks for nothing: a request sends it.
          if (kind === SECRETS && SECRET_FILE.test(m[0]) && !SENDING.test(sentenceAt(text, m.index))) continue;
          const ownUse = kind === OTHER_TOOLS && ownUseSentence(sentenceAt(text, m.index));
          yield {
            tool: toolLabel(tool),
            message: `${toolLabel(tool)}: ${where} contains ${kind}: ${JSON.stringify(excerpt(m[0]))}.`,
            fix: 'Describe what the tool does; never address the model with orders, hide text, or refer to other tools.',
            ...(ownUse ? { certainty: 'likely' as const } : {}),
          };
        }
      }
    }
  },
};

/** Characters that render as nothing or reorder text: zero-width, bidi controls, tag characters. */
const INVISIBLE =
  /[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]|\uDB40[\uDC00-\uDC7F]|\uDB40[\uDD00-\uDDEF]/g;

/** Every first code unit an invisible character can have (inclusive ranges): a text without any has none. */
export const INVISIBLE_FIRST_UNITS: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0x3164, 0x3164],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xdb40, 0xdb40],
];

// The same units in one class, which is searched several times faster than INVISIBLE's
// alternatives where the SIMD pass is missing.
const MAYBE_INVISIBLE = new RegExp(
  `[${INVISIBLE_FIRST_UNITS.map(([first, last]) => `\\u${hex4(first)}-\\u${hex4(last)}`).join('')}]`,
  'g',
);

function hex4(code: number): string {
  return code.toString(16).padStart(4, '0');
}

/**
 * Whether a text holds any invisible character. Each is outside ASCII, and all but the
 * soft hyphen outside Latin-1: a text V8 keeps in one byte per character is answered with
 * one search, and others by the SIMD pass where it runs (a native search otherwise).
 *
 * @example
 * ```ts
 * hasInvisibleCharacters('a\u200Bb'); // true
 * ```
 */
export function hasInvisibleCharacters(text: string): boolean {
  const scanner = literalScanner();
  const known = scanner?.remembers(text, INVISIBLE_FIRST_UNITS) ?? false;
  if (!known && !hasWideCharacters(text)) return text.includes('\u00AD');
  let first: number;
  if (scanner !== undefined) first = scanner.firstInRanges(text, INVISIBLE_FIRST_UNITS);
  else {
    MAYBE_INVISIBLE.lastIndex = 0;
    first = MAYBE_INVISIBLE.exec(text)?.index ?? -1;
  }
  if (first === -1) return false;
  INVISIBLE.lastIndex = first;
  return INVISIBLE.test(text);
}

function describeInvisible(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag characters';
  if (cp >= 0xe0100) return 'variation selectors';
  if (
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x061c
  )
    return 'bidirectional controls';
  return 'zero-width';
}

/** The ASCII text smuggled in Unicode tag characters (U+E0020…U+E007E), if any. */
export function decodeTagCharacters(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) out += String.fromCharCode(cp - 0xe0000);
  }
  return out;
}

export const hiddenUnicode: LintRule = {
  id: 'hidden-unicode',
  severity: 'error',
  summary: 'Tool text has no invisible characters (zero-width, bidi controls, Unicode tag characters).',
  explanation:
    'Models read characters people cannot see: Unicode tag characters can carry whole hidden sentences ("ASCII smuggling"), bidirectional controls make reviewed text differ from what the model reads (Trojan Source), zero-width characters hide words from filters. None belongs in a tool description.',
  *check({ tools }) {
    for (const tool of tools) {
      for (const { where, text } of toolTexts(tool)) {
        const found = text.match(INVISIBLE);
        if (!found) continue;
        const kinds = [...new Set(found.map(describeInvisible))];
        const codes = [
          ...new Set(found.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)),
        ];
        const smuggled = decodeTagCharacters(text);
        yield {
          tool: toolLabel(tool),
          message:
            `${toolLabel(tool)}: ${where} contains ${found.length} invisible character${found.length === 1 ? '' : 's'} (${kinds.join(', ')})` +
            (smuggled ? ` spelling ${JSON.stringify(excerpt(smuggled))}.` : '.'),
          fix: `Remove the invisible characters (${codes.slice(0, 5).join(', ')}${codes.length > 5 ? ', …' : ''}).`,
        };
      }
    }
  },
};

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
}

export const steeringRules: readonly LintRule[] = [descriptionSteering, hiddenUnicode];
