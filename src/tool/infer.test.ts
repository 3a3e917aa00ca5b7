import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainEffects, inferEffects, isOpenWorldCue, verbInfo } from './infer.js';
import type { Effect, Inference, World } from './types.js';

type Row = [name: string, effect: Effect, world: World, confidence: Inference['confidence'], description?: string];

/**
 * The inference table (at least 60 names covering the traps). Each row is
 * name → expected effect, world and confidence; an optional description last.
 */
const TABLE: Row[] = [
  // Substring traps that fooled other projects: only whole words count.
  ['forget_memory', 'destructive', 'closed', 'high'],
  ['execute_query', 'destructive', 'open', 'low'],
  ['spreadsheet_write', 'destructive', 'closed', 'high'],
  ['readme', 'destructive', 'open', 'low'],
  ['target_list', 'read', 'closed', 'high'],
  ['settings', 'destructive', 'open', 'low'],
  // The first verb wins over later nouns.
  ['list_deleted_items', 'read', 'closed', 'high'],
  ['delete_list', 'destructive', 'closed', 'high'],
  ['get_post', 'read', 'closed', 'high'],
  ['create_tag', 'additive', 'closed', 'high'],
  ['search_history', 'read', 'closed', 'high'],
  // A word that is always a verb outranks one that is often a noun.
  ['comment_delete', 'destructive', 'closed', 'high'],
  ['issue_create', 'additive', 'closed', 'high'],
  ['list_delete_requests', 'destructive', 'closed', 'medium'],
  ['view_log', 'read', 'closed', 'high'],
  // a writing word that is often a noun is one after the first word; lifecycle verbs take their activity's.
  ['git_log', 'destructive', 'open', 'low'],
  ['git_push', 'additive', 'open', 'high'],
  ['log_event', 'additive', 'closed', 'high'],
  ['start_search', 'read', 'closed', 'medium'],
  ['stop_search', 'read', 'closed', 'medium'],
  ['stop_server', 'additive', 'closed', 'high'],
  ['start_process', 'additive', 'closed', 'high'],
  // Unknown or opaque verbs: low confidence, worst case.
  ['run_command', 'destructive', 'open', 'low'],
  ['do_thing', 'destructive', 'open', 'low'],
  ['invoke_lambda', 'destructive', 'open', 'low'],
  ['process_payment', 'destructive', 'open', 'low'],
  ['manage_users', 'destructive', 'open', 'low'],
  ['server_info', 'destructive', 'open', 'low'],
  ['calculator', 'destructive', 'open', 'low'],
  ['click', 'destructive', 'open', 'low'],
  // Mixed names take the worst case.
  ['get_or_create_user', 'additive', 'closed', 'high'],
  ['find_and_replace', 'destructive', 'closed', 'high'],
  ['create_or_update_file', 'destructive', 'closed', 'high'],
  ['read_write_file', 'destructive', 'closed', 'medium'],
  ['query_and_execute', 'destructive', 'open', 'low'],
  // Reads.
  ['read_file', 'read', 'closed', 'high'],
  ['getUser', 'read', 'closed', 'high'],
  ['listUsers', 'read', 'closed', 'high'],
  ['describe_table', 'read', 'closed', 'high'],
  ['count_rows', 'read', 'closed', 'high'],
  ['check_health', 'read', 'closed', 'high'],
  ['inspect_container', 'read', 'closed', 'high'],
  ['stat_file', 'read', 'closed', 'high'],
  ['show_status', 'read', 'closed', 'high'],
  ['is_enabled', 'read', 'closed', 'high'],
  ['echo', 'read', 'closed', 'high'],
  ['query_database', 'read', 'closed', 'medium'],
  // Destructive (erasing).
  ['removeMember', 'destructive', 'closed', 'high'],
  ['drop_table', 'destructive', 'closed', 'high'],
  ['truncate_log', 'destructive', 'closed', 'high'],
  ['kill_process', 'destructive', 'closed', 'high'],
  ['revoke_token', 'destructive', 'closed', 'high'],
  ['purge_cache', 'destructive', 'closed', 'high'],
  ['reset_password', 'destructive', 'closed', 'high'],
  ['clear_history', 'destructive', 'closed', 'high'],
  ['wipe-disk', 'destructive', 'closed', 'high'],
  ['cancel_order', 'destructive', 'closed', 'high'],
  ['uninstall_package', 'destructive', 'closed', 'high'],
  ['terminate_instance', 'destructive', 'closed', 'high'],
  // Destructive (overwriting).
  ['overwrite_config', 'destructive', 'closed', 'high'],
  ['set_config', 'destructive', 'closed', 'high'],
  ['put_object', 'destructive', 'closed', 'high'],
  ['update_issue', 'destructive', 'closed', 'high'],
  ['upsert_record', 'destructive', 'closed', 'high'],
  ['move_file', 'destructive', 'closed', 'high'],
  ['rename_file', 'destructive', 'closed', 'high'],
  ['edit_file', 'destructive', 'closed', 'high'],
  // Additive.
  ['create_directory', 'additive', 'closed', 'high'],
  ['add_comment', 'additive', 'closed', 'high'],
  ['insert_row', 'additive', 'closed', 'high'],
  ['append_log', 'additive', 'closed', 'high'],
  ['post_comment', 'additive', 'closed', 'high'],
  ['reply_to_thread', 'additive', 'closed', 'high'],
  ['invite_user', 'additive', 'closed', 'high'],
  ['save_note', 'additive', 'closed', 'high'],
  ['publish_post', 'additive', 'closed', 'high'],
  ['enable_feature', 'additive', 'closed', 'high'],
  ['assign_issue', 'additive', 'closed', 'high'],
  // Open-world cues.
  ['web_search', 'read', 'open', 'high'],
  ['search-the-web', 'read', 'open', 'high'],
  ['fetch', 'read', 'open', 'medium'],
  ['fetchUserProfile', 'read', 'open', 'medium'],
  ['HTTPGetRequest', 'read', 'open', 'high'],
  ['http_request', 'destructive', 'open', 'low'],
  ['send_email', 'additive', 'open', 'high'],
  ['sendSlackMessage', 'additive', 'open', 'high'],
  ['github.create_issue', 'additive', 'open', 'high'],
  ['mcp__github__delete_issue', 'destructive', 'open', 'high'],
  ['jira_update_ticket', 'destructive', 'open', 'high'],
  ['get_weather', 'read', 'open', 'high'],
  ['browse_page', 'read', 'open', 'high'],
  ['upload_file', 'additive', 'open', 'high'],
  ['register_webhook', 'additive', 'open', 'high'],
  ['tweet', 'additive', 'open', 'high'],
  ['git_push', 'additive', 'open', 'high'],
  ['call_api', 'destructive', 'open', 'low'],
  // Descriptions: confirm, decide when the name has no verb, worsen, never improve.
  ['delete_user', 'destructive', 'closed', 'high', 'Deletes a user and all their data.'],
  ['delete_user', 'destructive', 'closed', 'medium', 'Returns the user after removing it.'],
  ['get_user', 'destructive', 'closed', 'medium', 'Deletes the user.'],
  ['user_info', 'read', 'closed', 'medium', 'Returns information about the current user.'],
  ['weather', 'read', 'open', 'medium', 'Get the current weather for a city.'],
  ['notes', 'destructive', 'closed', 'medium', 'Use this tool to delete notes.'],
  ['execute_query', 'destructive', 'open', 'low', 'Runs a read-only SQL query.'],
  ['execute_sql', 'destructive', 'open', 'low', 'Lists the tables of the database.'],
  ['run_cleanup', 'destructive', 'open', 'medium', 'Deletes temporary files.'],
  ['create_file', 'destructive', 'closed', 'medium', 'Creates a new file or overwrites an existing one.'],
  ['list_items', 'read', 'closed', 'high', 'Lists items. Never overwrites anything.'],
  ['list_items', 'read', 'closed', 'high', 'Lists items; this does not overwrite anything.'],
  ['purge', 'destructive', 'closed', 'high', 'Permanently deletes the queue.'],
  ['lookup', 'read', 'open', 'high', 'Look up a page on the web.'],
  ['summarize', 'read', 'closed', 'high', 'Summarize the text you are given.'],
];

describe('inferEffects', () => {
  it('has at least 60 rows in its table', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
  });

  it.each(TABLE)('infers %s as %s, %s world, %s confidence', (name, effect, world, confidence, description) => {
    const got = inferEffects(name, description);
    expect({ effect: got.effect, world: got.world, confidence: got.confidence }).toEqual({
      effect,
      world,
      confidence,
    });
    expect(got.reasons.length).toBeGreaterThan(0);
  });

  it('names the word it read forget_memory by, not a substring', () => {
    const got = inferEffects('forget_memory');
    expect(got.reasons[0]).toContain('"forget"');
    expect(got.reasons.join(' ')).not.toContain('"get"');
  });

  it('explains the worst case for an opaque verb', () => {
    const got = inferEffects('execute_query');
    expect(got.reasons[0]).toContain('"execute"');
    expect(got.reasons[0]).toContain('worst case');
    expect(got.idempotent).toBe(false);
  });

  it('lists every verb of a mixed name in its reasons', () => {
    const got = inferEffects('get_or_create_user');
    expect(got.reasons[0]).toContain('"get": read');
    expect(got.reasons[0]).toContain('"create": additive');
  });

  it('says a description never makes a tool look safer than its name', () => {
    const got = inferEffects('delete_user', 'Returns the user after removing it.');
    expect(got.reasons.join(' ')).toContain('never makes a tool look safer');
  });

  it('marks reads idempotent and erasing or creating verbs not idempotent', () => {
    expect(inferEffects('list_users').idempotent).toBe(true);
    expect(inferEffects('set_flag').idempotent).toBe(true);
    expect(inferEffects('enable_feature').idempotent).toBe(true);
    expect(inferEffects('create_user').idempotent).toBe(false);
    expect(inferEffects('delete_user').idempotent).toBe(false);
    expect(inferEffects('move_file').idempotent).toBe(false);
  });

  it('never throws and always answers one of the allowed values, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string(), { nil: undefined }), (name, description) => {
        const got = inferEffects(name, description);
        expect(['read', 'additive', 'destructive']).toContain(got.effect);
        expect(['closed', 'open']).toContain(got.world);
        expect(['high', 'medium', 'low']).toContain(got.confidence);
        if (got.effect === 'read') expect(got.idempotent).toBe(true);
      }),
    );
  });

  it('never turns a non-read name into a read because of its description', () => {
    const writes = ['delete_user', 'create_user', 'execute_query', 'set_value', 'run', 'get_or_create_user'];
    fc.assert(
      fc.property(fc.constantFrom(...writes), fc.lorem({ maxCount: 12 }), (name, prose) => {
        for (const lead of ['Returns ', 'Lists ', 'Gets ', 'Reads ', '']) {
          expect(inferEffects(name, lead + prose).effect).not.toBe('read');
        }
      }),
    );
  });

  it('tolerates a non-string name from untyped callers', () => {
    expect(inferEffects(undefined as unknown as string).confidence).toBe('low');
  });
});

describe('verbInfo and isOpenWorldCue', () => {
  it('tells erasing verbs from overwriting and opaque ones', () => {
    expect(verbInfo('delete')?.family).toBe('erase');
    expect(verbInfo('Deletes')?.family).toBe('erase');
    expect(verbInfo('update')?.family).toBe('overwrite');
    expect(verbInfo('run')?.family).toBe('opaque');
    expect(verbInfo('users')).toBeUndefined();
  });

  it('recognises open-world cue words and nothing else', () => {
    expect(isOpenWorldCue('Slack')).toBe(true);
    expect(isOpenWorldCue('memory')).toBe(false);
  });
});

describe('explainEffects', () => {
  it('names the deciding word, its family and where it was found', () => {
    expect(explainEffects('purge_cache').basis).toEqual({ word: 'purge', family: 'erase', from: 'name' });
    expect(explainEffects('update_issue').basis).toEqual({ word: 'update', family: 'overwrite', from: 'name' });
    expect(explainEffects('execute_query').basis).toEqual({ word: 'execute', family: 'opaque', from: 'name' });
    expect(explainEffects('get_user', 'Deletes the user.').basis).toEqual({
      word: 'delete',
      family: 'erase',
      from: 'description',
    });
    expect(explainEffects('create_file', 'Creates or overwrites a file.').basis).toEqual({
      word: 'overwrites',
      family: 'overwrite',
      from: 'description',
    });
    expect(explainEffects('server_info').basis).toBeUndefined();
  });

  it('lists open-world cues with where they were found', () => {
    expect(explainEffects('post_to_slack', 'Posts a message to a web channel.').openCues).toEqual([
      { word: 'slack', from: 'name' },
      { word: 'web', from: 'description' },
    ]);
    expect(explainEffects('read_file').openCues).toEqual([]);
  });

  it('returns the same inference as inferEffects, without the evidence', () => {
    const { basis, openCues, ...rest } = explainEffects('delete_list', 'Deletes a list.');
    expect(rest).toEqual(inferEffects('delete_list', 'Deletes a list.'));
    expect(Object.keys(inferEffects('delete_list'))).toEqual([
      'effect',
      'world',
      'idempotent',
      'confidence',
      'reasons',
    ]);
    expect(basis?.word).toBe('delete');
    expect(openCues).toEqual([]);
  });
});
