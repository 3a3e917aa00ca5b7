import { describe, expect, it } from 'vitest';
import { generateArguments } from './arguments.js';
import { callOrder, isSelector, nounsOf, ValuePool } from './value-pool.js';

const json = (value: unknown) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

describe('ValuePool', () => {
  it('offers ids a list returned to a get that names them by its noun', () => {
    const pool = new ValuePool();
    pool.add('list_issues', json({ issues: [{ id: 'iss-1', title: 'a' }, { id: 'iss-2' }], next: null }));
    pool.add('list_users', json([{ id: 'u-9', login: 'ann' }]));
    expect(pool.offersFor('get_issue')('issue_id')).toEqual(['iss-1', 'iss-2']);
    expect(pool.offersFor('get_issue')('id')[0]).toBe('iss-1');
    expect(pool.offersFor('get_user')('id')[0]).toBe('u-9');
    // Not a selector: no answer's value is offered.
    expect(pool.offersFor('create_issue')('title')).toEqual([]);
  });

  it('offers seeded data to properties of its name, and structured content too', () => {
    const pool = new ValuePool({ table: ['users', 'orders'] });
    expect(pool.offersFor('describe_table')('table')).toEqual(['users', 'orders']);
    expect(pool.offersFor('query')('table_name')).toEqual(['users', 'orders']);
    pool.add('list_repos', { content: [], structuredContent: { repos: [{ name: 'candor', owner: 'me' }] } });
    expect(pool.offersFor('get_repo')('repo_name')).toEqual(['candor']);
  });

  it("offers a seed list named in the plural to a property named in the singular (a page double's selectors)", () => {
    const pool = new ValuePool({ selectors: ['#items', 'input[name="q"]'], urls: ['http://127.0.0.1:9/items'] });
    expect(pool.offersFor('click')('selector')).toEqual(['#items', 'input[name="q"]']);
    expect(pool.offersFor('navigate')('url')).toEqual(['http://127.0.0.1:9/items']);
    expect(pool.offersFor('click')('selectors')).toEqual(['#items', 'input[name="q"]']);
  });

  it('reads at most a bounded number of nodes of a huge or deep answer', () => {
    const pool = new ValuePool();
    let deep: unknown = { id: 'bottom' };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    pool.add('list_things', { structuredContent: deep });
    const wide = Array.from({ length: 200_000 }, (_, i) => ({ id: `x${i}` }));
    pool.add('list_things', json(wide));
    expect(pool.offersFor('get_thing')('id').length).toBeLessThanOrEqual(16);
  });

  it('feeds the generator: the offered value when the schema accepts it, else a generated one', () => {
    const offers = new ValuePool({ id: ['itm-7f3a', '12'] }).offersFor('get_item');
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: '^itm-' } }, required: ['id'] };
    expect(generateArguments(schema, { seed: 1, workdir: '/w', offers })).toEqual({ id: 'itm-7f3a' });
    const numeric = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };
    expect(generateArguments(numeric, { seed: 1, workdir: '/w', offers })).toEqual({ id: 12 });
    const strict = { type: 'object', properties: { id: { type: 'string', pattern: '^zzz$' } }, required: ['id'] };
    expect(generateArguments(strict, { seed: 1, workdir: '/w', offers })).toEqual({ id: 'zzz' });
  });
});

describe('callOrder', () => {
  it('runs tools needing a selector after the rest: readers, then writers, then destructive ones', () => {
    const tool = (name: string, required: string[], readOnlyHint: boolean, destructiveHint: boolean) => ({
      name,
      inputSchema: { type: 'object', required },
      hints: { readOnlyHint, destructiveHint },
    });
    const tools = [
      tool('delete_item', ['item_id'], false, true),
      tool('update_item', ['id'], false, false),
      tool('get_item', ['itemId'], true, false),
      tool('list_items', [], true, false),
      tool('create_item', ['title'], false, false),
    ];
    expect(callOrder(tools, (t) => t.hints).map((t) => t.name)).toEqual([
      'list_items',
      'create_item',
      'get_item',
      'update_item',
      'delete_item',
    ]);
  });

  it('reads nouns and selectors in any case style', () => {
    expect(nounsOf('listOpenIssues')).toEqual(['open', 'issue']);
    expect(nounsOf('get_repositories')).toEqual(['repository']);
    expect(isSelector('issueId')).toBe(true);
    expect(isSelector('table')).toBe(true);
    expect(isSelector('text')).toBe(false);
  });
});
