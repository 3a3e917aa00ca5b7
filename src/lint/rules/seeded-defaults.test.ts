import { describe, expect, it } from 'vitest';
import { lint } from '../lint.js';

const seeded = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
const tool = (name: string, annotations: Record<string, unknown> = seeded) => ({
  name,
  inputSchema: { type: 'object' },
  annotations,
});
const seededFindings = (tools: unknown[]) => lint(tools).findings.filter((f) => f.ruleId === 'hints-seeded-defaults');

describe('hints-seeded-defaults', () => {
  it('reports once, for the server, when every tool carries the library worst case, reads included', () => {
    const findings = seededFindings([tool('excel_read_sheet'), tool('excel_write_to_sheet'), tool('excel_copy_sheet')]);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.tool).toBeUndefined();
    expect(findings[0]!.severity).toBe('warning');
    expect(findings[0]!.message).toContain('excel_read_sheet');
  });

  it('stays quiet when one tool says something else, or when no tool reads', () => {
    expect(
      seededFindings([tool('read_sheet'), tool('write_sheet'), tool('list_sheets', { ...seeded, readOnlyHint: true })]),
    ).toEqual([]);
    expect(seededFindings([tool('delete_sheet'), tool('write_sheet'), tool('copy_sheet')])).toEqual([]);
  });
});

describe('word matching', () => {
  const rules = (tools: unknown[]) =>
    lint(tools)
      .findings.filter((f) => f.ruleId.startsWith('name-') || f.ruleId.startsWith('hints-'))
      .map((f) => [f.tool, f.ruleId]);
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  it('reads "log" after the first word as a noun (git_log), "start"/"stop" of a search as the search', () => {
    expect(
      rules([
        tool('git_log', readOnly),
        tool('start_search', readOnly),
        tool('stop_search', { readOnlyHint: false, destructiveHint: false, openWorldHint: false }),
      ]),
    ).toEqual([]);
  });

  it('does not suggest readOnlyHint: true for a bare query tool, which runs any statement', () => {
    const [missing] = lint([tool('query', {})]).findings.filter((f) => f.ruleId === 'hints-missing');
    expect(missing!.patch).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(missing!.fix).toContain('only if the server enforces read-only execution');
  });
});
