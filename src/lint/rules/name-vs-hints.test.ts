import { describe, expect, it } from 'vitest';
import { lint } from '../lint.js';

const schema = { type: 'object' };
const tool = (name: string, annotations: Record<string, unknown>, description?: string) => ({
  name,
  inputSchema: schema,
  annotations,
  ...(description !== undefined ? { description } : {}),
});
const ids = (tools: unknown[], ruleId: string) => lint(tools).findings.filter((f) => f.ruleId === ruleId);

describe('name-says-writes', () => {
  it('fires on a read-only claim by a tool whose first verb deletes', () => {
    const [f] = ids([tool('forget_memory', { readOnlyHint: true })], 'name-says-writes');
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain('"forget"');
    expect(f?.patch).toEqual({ readOnlyHint: false, destructiveHint: true });
  });

  it('fires on a write verb with readOnlyHint (spreadsheet_write)', () => {
    expect(ids([tool('spreadsheet_write', { readOnlyHint: true })], 'name-says-writes')).toHaveLength(1);
  });

  it('fires on a creating verb and suggests destructiveHint false', () => {
    const [f] = ids([tool('send_email', { readOnlyHint: true })], 'name-says-writes');
    expect(f?.patch).toEqual({ readOnlyHint: false, destructiveHint: false });
  });

  it('fires one level milder when the evidence is medium confidence', () => {
    const [f] = ids([tool('list_delete_requests', { readOnlyHint: true })], 'name-says-writes');
    expect(f?.severity).toBe('warning');
  });

  it('fires when the description opens with a write verb', () => {
    const [f] = ids([tool('user_info', { readOnlyHint: true }, 'Deletes the user record.')], 'name-says-writes');
    expect(f?.message).toContain('its description ("delete")');
  });

  it('does not fire when the first verb reads, whatever nouns follow (list_deleted_items)', () => {
    expect(ids([tool('list_deleted_items', { readOnlyHint: true })], 'name-says-writes')).toEqual([]);
  });

  it('does not fire on an opaque verb (that is read-only-unverifiable)', () => {
    expect(ids([tool('execute_query', { readOnlyHint: true })], 'name-says-writes')).toEqual([]);
  });

  it('does not fire on a name without a verb', () => {
    expect(ids([tool('directory_tree', { readOnlyHint: true })], 'name-says-writes')).toEqual([]);
  });
});

describe('read-only-unverifiable', () => {
  it('fires on execute_query marked read-only', () => {
    const [f] = ids([tool('execute_query', { readOnlyHint: true })], 'read-only-unverifiable');
    expect(f?.severity).toBe('info');
    expect(f?.message).toContain('"execute"');
  });

  it('does not fire when the tool does not claim read-only', () => {
    expect(ids([tool('execute_query', { readOnlyHint: false })], 'read-only-unverifiable')).toEqual([]);
  });
});

describe('name-says-destructive', () => {
  it('fires on a delete verb with destructiveHint false', () => {
    const [f] = ids([tool('delete_file', { readOnlyHint: false, destructiveHint: false })], 'name-says-destructive');
    expect(f?.severity).toBe('error');
    expect(f?.patch).toEqual({ destructiveHint: true });
  });

  it('fires on "permanently" in the description of a creating tool', () => {
    const found = ids(
      [tool('archive_project', { destructiveHint: false }, 'Archives the project and permanently removes its builds.')],
      'name-says-destructive',
    );
    expect(found).toHaveLength(1);
    expect(found[0]?.severity).toBe('warning');
  });

  it('does not fire when destructiveHint is absent (the spec default is already true)', () => {
    expect(ids([tool('delete_file', { readOnlyHint: false })], 'name-says-destructive')).toEqual([]);
  });

  it('does not fire on a read verb followed by a deleting noun', () => {
    expect(ids([tool('list_deleted_items', { destructiveHint: false })], 'name-says-destructive')).toEqual([]);
  });

  it('does not fire on an overwriting verb (that is name-says-overwrite)', () => {
    expect(ids([tool('update_issue', { destructiveHint: false })], 'name-says-destructive')).toEqual([]);
  });
});

describe('name-says-overwrite', () => {
  it('fires as info on update with destructiveHint false', () => {
    const [f] = ids([tool('update_issue', { readOnlyHint: false, destructiveHint: false })], 'name-says-overwrite');
    expect(f?.severity).toBe('info');
  });

  it('fires on a create tool whose description says it overwrites', () => {
    const found = ids(
      [tool('create_file', { destructiveHint: false }, 'Creates a file, or overwrites an existing one.')],
      'name-says-overwrite',
    );
    expect(found).toHaveLength(1);
  });

  it('does not fire when the description says it never overwrites', () => {
    const found = ids(
      [tool('create_file', { destructiveHint: false }, 'Creates a file. Never overwrites an existing one.')],
      'name-says-overwrite',
    );
    expect(found).toEqual([]);
  });
});

describe('name-says-open-world', () => {
  it('fires on a web cue in the name with openWorldHint false', () => {
    const [f] = ids([tool('web_search', { readOnlyHint: true, openWorldHint: false })], 'name-says-open-world');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toContain('"web"');
    expect(f?.patch).toEqual({ openWorldHint: true });
  });

  it('fires one level milder for a cue only in the description', () => {
    const [f] = ids(
      [tool('lookup', { readOnlyHint: true, openWorldHint: false }, 'Looks up a page on the internet.')],
      'name-says-open-world',
    );
    expect(f?.severity).toBe('info');
  });

  it('does not fire on a substring of a cue (webinar_notes is not "web")', () => {
    expect(
      ids([tool('list_webinar_notes', { readOnlyHint: true, openWorldHint: false })], 'name-says-open-world'),
    ).toEqual([]);
  });

  it('does not fire when openWorldHint is true or absent', () => {
    expect(
      ids([tool('send_email', { openWorldHint: true }), tool('post_to_slack', {})], 'name-says-open-world'),
    ).toEqual([]);
  });
});
