/**
 * The word lists behind `inferEffects`: verbs by what they do, verbs that say
 * nothing (opaque), conjunctions, open-world cues. Whole words only; the matching rules
 * live in infer.ts.
 */
import type { Effect } from './types.js';

/** What kind of verb a word is: it reads, creates, sets a repeatable state, overwrites or erases. */
export type VerbFamily = 'read' | 'add' | 'toggle' | 'overwrite' | 'erase';

/** A lexicon entry: what a verb does when it leads a tool name. */
export interface Verb {
  effect: Effect;
  idempotent: boolean;
  /** `weak` words are often nouns (`list`, `post`, `comment`): any strong verb outranks them. */
  strength: 'strong' | 'weak';
  /** Erasing verbs (delete, drop, kill…) as opposed to overwriting ones (set, update, move…). */
  family: VerbFamily;
  /** The most this verb alone can justify (`query` may be any SQL statement). */
  cap?: 'medium';
  /** The verb itself reaches outside (`fetch`, `browse`, `tweet`). */
  open?: boolean;
}

export const LEXICON = new Map<string, Verb>();
function words(list: string, verb: Verb): void {
  for (const w of list.split(/\s+/)) if (w) LEXICON.set(w, verb);
}

const read = (strength: 'strong' | 'weak', extra: Partial<Verb> = {}): Verb => ({
  effect: 'read',
  idempotent: true,
  strength,
  family: 'read',
  ...extra,
});
words(
  'get read find describe retrieve lookup inspect show browse peek preview explain summarize summarise analyze ' +
    'analyse compare diff validate verify calculate compute parse echo ping whoami display explore',
  read('strong'),
);
words('list search count check view stat stats watch monitor poll exists is has can', read('weak'));
words('fetch', read('strong', { open: true, cap: 'medium' }));
words('download crawl scrape', read('strong', { open: true }));
words('query', read('weak', { cap: 'medium' }));

/** Read verbs whose argument is a statement in a language that can also write (`query`: any SQL). */
export const STATEMENT_VERBS = new Set(['query']);

const add = (strength: 'strong' | 'weak', extra: Partial<Verb> = {}): Verb => ({
  effect: 'additive',
  idempotent: false,
  strength,
  family: 'add',
  ...extra,
});
words(
  'create add insert append send upload publish invite register save submit commit fork clone copy duplicate ' +
    'import attach start launch spawn schedule notify share install',
  add('strong'),
);
words('post comment reply message log record draft', add('weak'));
words('push', add('weak', { open: true }));
words('tweet email', add('weak', { open: true }));

const toggle: Verb = { effect: 'additive', idempotent: true, strength: 'strong', family: 'toggle' };
words(
  'enable disable assign unassign tag label mark pin unpin star unstar follow unfollow subscribe unsubscribe ' +
    'approve lock unlock ensure mkdir archive unarchive grant stop pause resume',
  toggle,
);

/**
 * Verbs that start or end an activity: what they do is what the activity does
 * (`start_search` and `stop_search` only read; `start_server` adds).
 * desktop-commander's start_search/stop_search were read as writes and erasure.
 */
export const LIFECYCLE = new Set(['start', 'stop', 'pause', 'resume', 'cancel', 'begin', 'end', 'abort']);

const overwrite = (idempotent: boolean, extra: Partial<Verb> = {}): Verb => ({
  effect: 'destructive',
  idempotent,
  strength: 'strong',
  family: 'overwrite',
  ...extra,
});
words('set put update upsert overwrite replace write configure unset', overwrite(true));
words('edit modify patch move rename merge restore', overwrite(false));

words(
  'delete remove drop purge erase wipe destroy truncate kill terminate revoke uninstall cancel clear reset forget ' +
    'unlink rm del prune evict flush discard abort shutdown reboot restart rollback revert undo unregister ' +
    'unpublish expire ban',
  { effect: 'destructive', idempotent: false, strength: 'strong', family: 'erase' },
);

/** Verbs that say "something happens" but not what: the tool could do anything. */
export const OPAQUE = new Set(
  (
    'execute exec run do perform invoke call eval evaluate process handle manage apply trigger dispatch operate ' +
    'control use interact act administer mutate alter change sync migrate deploy click type press fill navigate ' +
    'sudo'
  ).split(' '),
);

/** Words that join verbs into a mixed action (`get_or_create`, `find_and_replace`). */
export const CONJUNCTIONS = new Set(['or', 'and', 'then', 'plus']);

/** Words that say the tool reaches an open world: the web, other people, third-party services. */
export const OPEN_WORLD = new Set(
  (
    'web www http https url urls internet online website browser email emails mail gmail smtp inbox slack discord ' +
    'telegram whatsapp sms tweet tweets twitter github gitlab bitbucket jira confluence notion google gdrive ' +
    'dropbox s3 aws gcp azure stripe paypal shopify salesforce hubspot zendesk twilio webhook webhooks graphql ' +
    'wikipedia weather news stock stocks rss youtube reddit spotify remote external cloud dns whois api apis ' +
    'fetch browse crawl scrape download upload'
  ).split(' '),
);
/** Cues too common in prose to count in a description ("uses the fs API", "the file's URL"). */
export const NAME_ONLY_CUES = new Set(['api', 'apis', 'download', 'upload', 'remote', 'cloud', 'stock', 'stocks']);

/** Words a description opens with before its verb ("Use this tool to delete…"). */
export const PREAMBLE = new Set(
  'use uses this tool to allows allow lets let you the a an can will used for it that which helps help function endpoint please is are be'.split(
    ' ',
  ),
);

/** Verbs that only descriptions lead with ("Returns the current time"); in a name they are nouns or worse. */
export const DESCRIPTION_VERBS = new Map<string, Verb>([
  ['return', read('strong')],
  ['provide', read('strong')],
  ['give', read('strong')],
]);
