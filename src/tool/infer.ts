/**
 * Effects inferred from a tool's name (and description), by *words*, never substrings.
 *
 * Inferring effects from names: substring matching is what made other
 * projects mark `forget_memory` ("get") and `execute_query` ("query") read-only. Here:
 * - the name is split into words (snake, kebab, camel, dots) and only whole words count;
 * - the first verb wins over later nouns (`list_deleted_items` reads, `delete_list` deletes),
 *   but a word that is unambiguously a verb wins over one that is often a noun
 *   (`comment_delete` deletes);
 * - an opaque verb (`execute`, `run`, `do`, …) or no verb at all means low confidence and
 *   the spec's worst case; a mixed name (`get_or_create_user`) takes the worst of its verbs;
 * - the description may confirm (raise confidence) or worsen the result, never improve it.
 *
 * Used by lint for suggestions and, only when a caller asks (`infer: true`), to fill in an
 * undeclared tool.
 */
import {
  CONJUNCTIONS,
  DESCRIPTION_VERBS,
  LEXICON,
  LIFECYCLE,
  NAME_ONLY_CUES,
  OPAQUE,
  OPEN_WORLD,
  PREAMBLE,
  type Verb,
  type VerbFamily,
} from './infer-lexicon.js';
import { splitWords } from './title.js';
import type { Effect, Inference, World } from './types.js';

export type { VerbFamily };

const ORDER: Record<Effect, number> = { read: 0, additive: 1, destructive: 2 };
const worse = (a: Effect, b: Effect): Effect => (ORDER[a] >= ORDER[b] ? a : b);

/** The verb reading of a name, before the description is considered. */
type NameReading =
  | { kind: 'verb'; word: string; verb: Verb; confidence: 'high' | 'medium'; others: string[] }
  | { kind: 'mixed'; verbs: Array<{ word: string; verb: Verb }>; joined: boolean }
  | { kind: 'opaque'; word: string }
  | { kind: 'none' };

function readName(ws: string[]): NameReading {
  // Mixed names first: verbs on both sides of a conjunction all happen.
  const joinedVerbs: Array<{ word: string; verb: Verb }> = [];
  for (let i = 1; i < ws.length - 1; i++) {
    if (!CONJUNCTIONS.has(ws[i]!)) continue;
    for (const w of [ws[i - 1]!, ws[i + 1]!]) {
      if (OPAQUE.has(w)) return { kind: 'opaque', word: w };
      const verb = LEXICON.get(w);
      if (verb && !joinedVerbs.some((v) => v.word === w)) joinedVerbs.push({ word: w, verb });
    }
  }
  if (joinedVerbs.length > 1) return { kind: 'mixed', verbs: joinedVerbs, joined: true };

  // Starting or stopping a read (`start_search`, `stop_watch`) reads: the activity's verb decides.
  const lead = ws[0];
  const activity = ws[1] === undefined ? undefined : LEXICON.get(ws[1]);
  if (lead !== undefined && LIFECYCLE.has(lead) && activity?.family === 'read') {
    return { kind: 'verb', word: ws[1]!, verb: activity, confidence: 'medium', others: [] };
  }
  const strong = ws.filter((w) => OPAQUE.has(w) || LEXICON.get(w)?.strength === 'strong');
  const first = strong[0];
  if (first !== undefined && OPAQUE.has(first)) return { kind: 'opaque', word: first };
  if (first !== undefined) {
    const verb = LEXICON.get(first)!;
    // Two unambiguous verbs of different effects (`read_write_file`): both may happen.
    const rivals = strong
      .filter((w) => w !== first && !OPAQUE.has(w) && LEXICON.get(w)!.effect !== verb.effect)
      .map((w) => ({ word: w, verb: LEXICON.get(w)! }));
    if (rivals.length > 0) return { kind: 'mixed', verbs: [{ word: first, verb }, ...rivals], joined: false };
    // Weak words before the verb read as nouns (`comment_delete`), but a leading read word
    // might be the real verb (`list_delete_requests`): then the reading is less certain.
    const weakBefore = ws.slice(0, ws.indexOf(first)).filter((w) => LEXICON.has(w));
    const doubtful = weakBefore.some((w) => {
      const e = LEXICON.get(w)!.effect;
      return (e === 'read' && verb.effect !== 'read') || ORDER[e] > ORDER[verb.effect];
    });
    return {
      kind: 'verb',
      word: first,
      verb,
      confidence: verb.cap ?? (doubtful ? 'medium' : 'high'),
      others: weakBefore,
    };
  }
  // Only words that are often nouns: the first one wins (`view_log` reads), less surely when
  // another of them would mean something else (`log_search`).
  // A weak writing word after the first is a noun (`git_log`, `audit_record`), unless it reaches out
  // (`git_push`).
  const weak = ws.filter((w, i) => {
    const verb = LEXICON.get(w);
    return verb !== undefined && (i === 0 || verb.effect === 'read' || verb.open === true);
  });
  const weakLead = weak[0];
  if (weakLead === undefined) return { kind: 'none' };
  const verb = LEXICON.get(weakLead)!;
  const others = weak.slice(1).filter((w) => LEXICON.get(w)!.effect !== verb.effect);
  return {
    kind: 'verb',
    word: weakLead,
    verb,
    confidence: verb.cap ?? (others.length > 0 ? 'medium' : 'high'),
    others: [],
  };
}

/** Base form of an English verb as descriptions write it ("Deletes", "Searches", "Copies"). */
function lemma(word: string, extra?: Map<string, Verb>): string | undefined {
  const candidates = [word];
  if (word.endsWith('ies')) candidates.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) candidates.push(word.slice(0, -2));
  if (word.endsWith('s')) candidates.push(word.slice(0, -1));
  return candidates.find((c) => LEXICON.has(c) || OPAQUE.has(c) || extra?.has(c));
}

/** What the description's first sentence leads with, and any danger phrases in it. */
function readDescription(description: string): {
  verb?: { word: string; verb?: Verb; opaque: boolean };
  danger: string[];
  openCues: string[];
} {
  const firstSentence = description.split(/[.!?](?:\s|$)|\n/)[0] ?? '';
  const sentenceWords = firstSentence.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  let verb: { word: string; verb?: Verb; opaque: boolean } | undefined;
  for (const w of sentenceWords) {
    if (PREAMBLE.has(w) || w.endsWith('ly')) continue; // "Use this tool to…", "Permanently deletes…"
    const base = lemma(w, DESCRIPTION_VERBS);
    if (base === undefined) break; // the description does not open with a verb we know
    // "Starts a search", "Stops the watcher": what is started says what happens, and the name says that better.
    if (LIFECYCLE.has(base)) break;
    verb = { word: base, verb: LEXICON.get(base) ?? DESCRIPTION_VERBS.get(base), opaque: OPAQUE.has(base) };
    break;
  }
  const text = description.toLowerCase();
  const all = text.match(/[a-z0-9]+/g) ?? [];
  const danger: string[] = [];
  for (const phrase of ['permanently', 'irreversible', 'irreversibly', 'cannot be undone', "can't be undone"]) {
    if (text.includes(phrase) && !/\bnot\s+permanently\b/.test(text)) danger.push(phrase);
  }
  // "overwrites" counts unless negated ("does not overwrite", "never overwrites", "without overwriting").
  const overwrite = /(\b(?:not|never|without|won't|doesn't)\s+)?\boverwrit(?:e|es|ing)\b/g;
  for (const m of text.matchAll(overwrite)) if (m[1] === undefined) danger.push(m[0].trim());
  const openCues = [...new Set(all.filter((w) => OPEN_WORLD.has(w) && !NAME_ONLY_CUES.has(w)))];
  return { ...(verb ? { verb } : {}), danger, openCues };
}

/**
 * Infer a tool's effect, world and idempotence from its name's words (and its description).
 *
 * @example
 * ```ts
 * inferEffects('list_deleted_items').effect; // 'read' (the first verb wins over later words)
 * inferEffects('forget_memory').effect; // 'destructive' ("forget" is a verb, not "get")
 * inferEffects('execute_query'); // { effect: 'destructive', world: 'open', confidence: 'low', … }
 * inferEffects('get_or_create_user').effect; // 'additive' (a mixed name takes the worst case)
 * ```
 */
export function inferEffects(name: string, description?: string): Inference {
  const { effect, world, idempotent, confidence, reasons } = explainEffects(name, description);
  return { effect, world, idempotent, confidence, reasons };
}

/** The word an inference rests on, and what kind of verb it is. */
export interface InferenceBasis {
  word: string;
  /** `erase` (delete, drop, "permanently"), `overwrite` (set, update, "overwrites"), `opaque` (run, execute)… */
  family: VerbFamily | 'opaque';
  from: 'name' | 'description';
}

/** An open-world cue word and where it was found. */
export interface OpenWorldCue {
  word: string;
  from: 'name' | 'description';
}

/** {@link inferEffects} plus the evidence, for callers that explain findings (lint). */
export interface EffectExplanation extends Inference {
  /** The word that decided the effect; absent when nothing did (worst case by default). */
  basis?: InferenceBasis;
  openCues: OpenWorldCue[];
}

/**
 * Like {@link inferEffects}, with the evidence: which word decided the effect and which
 * words made the world open. Lint uses it to say *why* a hint looks wrong.
 *
 * @example
 * ```ts
 * explainEffects('purge_cache').basis; // { word: 'purge', family: 'erase', from: 'name' }
 * explainEffects('post_to_slack').openCues; // [{ word: 'slack', from: 'name' }]
 * ```
 */
export function explainEffects(name: string, description?: string): EffectExplanation {
  const ws = splitWords(typeof name === 'string' ? name : '').map((w) => w.toLowerCase());
  const reading = readName(ws);
  const reasons: string[] = [];
  let effect: Effect;
  let idempotent: boolean;
  let confidence: Inference['confidence'];
  /** Whether a description may decide the effect (the name said nothing) or only worsen it. */
  let descriptionMayDecide = false;
  let basis: InferenceBasis | undefined;

  switch (reading.kind) {
    case 'verb': {
      ({ effect, idempotent } = reading.verb);
      confidence = reading.confidence;
      basis = { word: reading.word, family: reading.verb.family, from: 'name' };
      reasons.push(`"${reading.word}" is ${describeVerb(reading.verb)} verb: ${effect}.`);
      if (reading.others.length > 0) {
        reasons.push(
          `"${reading.others.join('", "')}" before it read${reading.others.length === 1 ? 's' : ''} as a noun here.`,
        );
      }
      if (reading.verb.cap) reasons.push(`"${reading.word}" alone is not conclusive, so confidence is at most medium.`);
      break;
    }
    case 'mixed': {
      effect = reading.verbs.map((v) => v.verb.effect).reduce(worse);
      idempotent = reading.verbs.every((v) => v.verb.idempotent);
      confidence = reading.joined ? 'high' : 'medium';
      const decisive = reading.verbs.find((v) => v.verb.effect === effect)!;
      basis = { word: decisive.word, family: decisive.verb.family, from: 'name' };
      reasons.push(
        `The name combines verbs (${reading.verbs.map((v) => `"${v.word}": ${v.verb.effect}`).join(', ')}); the worst case wins: ${effect}.`,
      );
      break;
    }
    case 'opaque':
      basis = { word: reading.word, family: 'opaque', from: 'name' };
      effect = 'destructive';
      idempotent = false;
      confidence = 'low';
      reasons.push(
        `"${reading.word}" says something happens but not what (it could do anything): the spec's worst case applies, destructive and not idempotent.`,
      );
      break;
    default:
      effect = 'destructive';
      idempotent = false;
      confidence = 'low';
      descriptionMayDecide = true;
      reasons.push("The name has no verb we know: the spec's worst case applies, destructive and not idempotent.");
  }

  const desc = typeof description === 'string' ? readDescription(description) : { danger: [], openCues: [] };
  const dv = desc.verb;
  if (dv?.verb && !dv.opaque) {
    const de = dv.verb.effect;
    const fromDescription: InferenceBasis = { word: dv.word, family: dv.verb.family, from: 'description' };
    if (descriptionMayDecide) {
      basis = fromDescription;
      effect = de;
      idempotent = dv.verb.idempotent;
      confidence = 'medium';
      reasons.push(`The description opens with "${dv.word}": ${de} (from the description only, so medium confidence).`);
    } else if (ORDER[de] > ORDER[effect]) {
      reasons.push(
        `The description opens with "${dv.word}" (${de}), worse than the name suggests: the worst case wins.`,
      );
      effect = de;
      basis = fromDescription;
      idempotent = idempotent && dv.verb.idempotent;
      if (confidence === 'high') confidence = 'medium';
      if (reading.kind === 'opaque') confidence = 'medium';
    } else if (de === effect) {
      if (reading.kind === 'verb' && confidence === 'medium' && !reading.verb.cap) confidence = 'high';
      if (reading.kind === 'opaque' && de === 'destructive') confidence = 'medium';
      reasons.push(`The description opens with "${dv.word}", which agrees.`);
    } else {
      reasons.push(
        `The description opens with "${dv.word}" (${de}), milder than the name; a description never makes a tool look safer than its name.`,
      );
      if (reading.kind === 'verb' && confidence === 'high') confidence = 'medium';
    }
  }
  if (desc.danger.length > 0 && effect !== 'destructive') {
    reasons.push(`The description says "${desc.danger.join('", "')}": destructive.`);
    effect = 'destructive';
    idempotent = false;
    if (confidence === 'high') confidence = 'medium';
    const word = desc.danger[0]!;
    basis = { word, family: word.startsWith('overwrit') ? 'overwrite' : 'erase', from: 'description' };
  }

  const nameCues = [...new Set(ws.filter((w) => OPEN_WORLD.has(w)))];
  const verbOpen = reading.kind === 'verb' && reading.verb.open === true && !nameCues.includes(reading.word);
  let world: World;
  if (nameCues.length > 0 || verbOpen) {
    world = 'open';
    reasons.push(`Open world: the name mentions "${(verbOpen ? [reading.word] : nameCues).join('", "')}".`);
  } else if (desc.openCues.length > 0) {
    world = 'open';
    reasons.push(`Open world: the description mentions "${desc.openCues.join('", "')}".`);
  } else if (reading.kind === 'opaque' || (reading.kind === 'none' && !dv?.verb)) {
    world = 'open';
    reasons.push('Open world assumed: nothing says what the tool reaches, so the spec default (open) applies.');
  } else {
    world = 'closed';
    reasons.push(
      'Closed world assumed: no web, email, third-party or other open-world cue in the name or description.',
    );
  }

  if (effect === 'read') idempotent = true;
  const openCues: OpenWorldCue[] = [
    ...(verbOpen ? [reading.word] : nameCues).map((word) => ({ word, from: 'name' as const })),
    ...desc.openCues.map((word) => ({ word, from: 'description' as const })),
  ];
  return { effect, world, idempotent, confidence, reasons, ...(basis ? { basis } : {}), openCues };
}

function describeVerb(verb: Verb): string {
  switch (verb.family) {
    case 'read':
      return 'a reading';
    case 'add':
      return 'a creating';
    case 'toggle':
      return 'a state-setting (repeatable)';
    case 'overwrite':
      return 'an overwriting';
    default:
      return 'an erasing';
  }
}

/**
 * The lexicon entry for a word, for callers that explain findings (lint): its effect and
 * whether it erases (`delete`, `drop`, `kill`) or overwrites (`set`, `update`, `move`).
 *
 * @example
 * ```ts
 * verbInfo('delete'); // { effect: 'destructive', family: 'erase', idempotent: false }
 * verbInfo('execute'); // { effect: 'destructive', family: 'opaque', idempotent: false }
 * verbInfo('users'); // undefined
 * ```
 */
export function verbInfo(
  word: string,
): { effect: Effect; family: VerbFamily | 'opaque'; idempotent: boolean } | undefined {
  const w = word.toLowerCase();
  if (OPAQUE.has(w)) return { effect: 'destructive', family: 'opaque', idempotent: false };
  const v = LEXICON.get(w) ?? LEXICON.get(lemma(w) ?? '');
  return v ? { effect: v.effect, family: v.family, idempotent: v.idempotent } : undefined;
}

/**
 * Whether a word is an open-world cue (web, http, email, slack, github, …).
 *
 * @example
 * ```ts
 * isOpenWorldCue('slack'); // true
 * isOpenWorldCue('memory'); // false
 * ```
 */
export function isOpenWorldCue(word: string): boolean {
  return OPEN_WORLD.has(word.toLowerCase());
}
