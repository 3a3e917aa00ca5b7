import { describe, expect, it } from 'vitest';
import type { Finding } from '../lint/types.js';
import { agreeWithObserved } from './suggestions.js';

const missing = (tool: string, patch: Finding['patch']): Finding => ({
  ruleId: 'hints-missing',
  severity: 'warning',
  tool,
  message: `${tool} has no annotations.`,
  fix: `Add "annotations": { ${Object.entries(patch!)
    .map(([k, v]) => `"${k}": ${v}`)
    .join(', ')} } (what the name suggests: read, closed world; check before copying).`,
  patch,
});

describe('agreeWithObserved', () => {
  it('turns the hints an observed effect contradicts, in the patch and in the fix', () => {
    const [net, write, gone, quiet] = agreeWithObserved(
      [
        missing('list_feeds', { readOnlyHint: true, openWorldHint: false }),
        missing('get_report', { readOnlyHint: true, openWorldHint: false }),
        missing('get_cache', { readOnlyHint: true, openWorldHint: false }),
        missing('get_time', { readOnlyHint: true, openWorldHint: false }),
      ],
      new Map([
        ['list_feeds', ['network']],
        ['get_report', ['wrote', 'network']],
        ['get_cache', ['deleted']],
        ['get_time', ['scratch']],
      ]),
    );
    expect(net!.patch).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(net!.fix).toContain('{ "readOnlyHint": true, "openWorldHint": true }');
    expect(net!.fix).toContain('this scan saw list_feeds reach the network');
    expect(write!.patch).toEqual({ readOnlyHint: false, openWorldHint: true });
    expect(gone!.patch).toEqual({ readOnlyHint: false, openWorldHint: false, destructiveHint: true });
    expect(quiet!.patch).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(quiet!.fix).not.toContain('this scan saw');
  });

  it('follows what the doubles saw: API requests open the world, an API write or a database write is not read-only, a doubtful POST only opens it', () => {
    const [read, write, db, doubt] = agreeWithObserved(
      [
        missing('get_issue', { readOnlyHint: true, openWorldHint: false }),
        missing('get_project', { readOnlyHint: true, openWorldHint: false }),
        missing('list_orders', { readOnlyHint: true, openWorldHint: false }),
        missing('find_items', { readOnlyHint: true, openWorldHint: false }),
      ],
      new Map([
        ['get_issue', ['API read']],
        ['get_project', ['API write']],
        ['list_orders', ['database write']],
        ['find_items', ['API request (read or write?)']],
      ]),
    );
    expect(read!.patch).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(write!.patch).toEqual({ readOnlyHint: false, openWorldHint: true });
    expect(write!.fix).toContain('send requests that write');
    expect(db!.patch).toEqual({ readOnlyHint: false, openWorldHint: false });
    expect(doubt!.patch).toEqual({ readOnlyHint: true, openWorldHint: true });
  });

  it('leaves findings without a patch, about no tool, or about a tool observe did not see, as they were', () => {
    const title: Finding = { ruleId: 'title-missing', severity: 'warning', tool: 'x', message: 'm' };
    const unseen = missing('y', { openWorldHint: false });
    expect(agreeWithObserved([title, unseen], new Map([['x', ['network']]]))).toEqual([title, unseen]);
  });
});
