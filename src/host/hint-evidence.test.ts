import { describe, expect, it } from 'vitest';
import { lintEvidence, tighten } from './hint-evidence.js';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

describe('hint evidence', () => {
  it('tightens a write tool that claims to be read-only, and drops what the claim implied', () => {
    const evidence = lintEvidence([
      {
        name: 'delete_user',
        description: 'Delete a user.',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true },
      },
    ]).get('delete_user');
    expect(evidence?.length).toBeGreaterThan(0);
    const { hints, corrections } = tighten(readOnly, evidence!);
    expect(hints).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    expect(corrections.map((c) => c.hint)).toEqual(['readOnlyHint', 'destructiveHint', 'idempotentHint']);
  });

  it('never relaxes a hint, whatever the patch says', () => {
    const strict = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
    const { hints, corrections } = tighten(strict, [
      {
        rule: 'x',
        reason: 'r',
        patch: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
    ]);
    expect(hints).toEqual(strict);
    expect(corrections).toEqual([]);
  });

  it('finds no evidence against an honest read tool', () => {
    const evidence = lintEvidence([
      { name: 'list_users', description: 'List the users.', inputSchema: { type: 'object' }, annotations: readOnly },
    ]);
    expect(evidence.get('list_users')).toBeUndefined();
  });

  it('does not tighten git_log, start_search or stop_search from words that are nouns or reads there', () => {
    const tool = (name: string, annotations: Record<string, unknown>) => ({
      name,
      description: `The ${name.replace('_', ' ')}.`,
      inputSchema: { type: 'object' },
      annotations,
    });
    const evidence = lintEvidence([
      tool('git_log', readOnly),
      tool('start_search', readOnly),
      tool('stop_search', { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }),
    ]);
    expect(
      [...evidence.entries()].filter(([, items]) =>
        items.some((i) => 'readOnlyHint' in i.patch || 'destructiveHint' in i.patch),
      ),
    ).toEqual([]);
  });
});
