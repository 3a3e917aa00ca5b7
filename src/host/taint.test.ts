import { describe, expect, it } from 'vitest';
import { afterResult, createTaintSession, taintModeOf, taintVerdict, UNTAINTED, withSource } from './taint.js';
import type { CatalogTool } from './types.js';

const tool = (name: string, hints: Partial<CatalogTool['hints']>, trust: CatalogTool['trust'] = 'trusted') =>
  ({
    name,
    server: name.split('__')[0]!,
    trust,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false, ...hints },
  }) as CatalogTool;

const fetchPage = tool('web__fetch', { readOnlyHint: true, openWorldHint: true });
const lookup = tool('dict__lookup', { readOnlyHint: true });
const send = tool('mail__send', { openWorldHint: true });
const remove = tool('fs__delete', { destructiveHint: true });
const note = tool('notes__add', {});

describe('taint', () => {
  it('is set by open-world and untrusted results, not by a trusted closed-world one', () => {
    expect(afterResult(UNTAINTED, lookup)).toBe(UNTAINTED);
    expect(afterResult(UNTAINTED, fetchPage).sources).toEqual([
      { tool: 'web__fetch', server: 'web', labels: ['open-world'] },
    ]);
    expect(
      afterResult(UNTAINTED, tool('dict__lookup', { readOnlyHint: true }, 'untrusted')).sources[0]!.labels,
    ).toEqual(['untrusted']);
    const labelled = { content: [], _meta: { 'io.modelcontextprotocol/trust-annotations': { untrusted: true } } };
    expect(afterResult(UNTAINTED, lookup, labelled).sources[0]!.labels).toEqual(['untrusted']);
  });

  it('holds up only destructive or sending calls, and only when tainted', () => {
    const tainted = afterResult(UNTAINTED, fetchPage);
    expect(taintVerdict(UNTAINTED, { tool: remove, readOnly: false }, 'ask')).toBeUndefined();
    expect(taintVerdict(tainted, { tool: lookup, readOnly: true }, 'ask')).toBeUndefined();
    expect(taintVerdict(tainted, { tool: note, readOnly: false }, 'ask')).toBeUndefined();
    expect(taintVerdict(tainted, { tool: remove, readOnly: false }, 'off')).toBeUndefined();
    expect(taintVerdict(tainted, { tool: remove, readOnly: false }, 'deny')?.decision).toBe('deny');
    const asked = taintVerdict(tainted, { tool: send, readOnly: false }, 'ask');
    expect(asked?.decision).toBe('ask');
    expect(asked?.reason).toBe(
      'this session holds untrusted content (the result of web__fetch (server web: open-world)), and mail__send can send data out (it reaches an open world and is not read-only): instructions hidden in that content must not drive it unseen.',
    );
    // A command-gated tool whose command only reads is not held up.
    expect(taintVerdict(tainted, { tool: send, readOnly: true }, 'ask')).toBeUndefined();
  });

  it('keeps a bounded list of sources, most recent last, labels merged', () => {
    let state = UNTAINTED;
    for (let i = 0; i < 20; i++) state = withSource(state, { tool: `s__t${i}`, server: 's', labels: ['untrusted'] });
    expect(state.sources).toHaveLength(8);
    expect(state.sources.at(-1)!.tool).toBe('s__t19');
    state = withSource(state, { tool: 's__t12', server: 's', labels: ['open-world'] });
    expect(state.sources.at(-1)).toEqual({ tool: 's__t12', server: 's', labels: ['open-world', 'untrusted'] });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('defaults to ask, to off under yolo, and refuses an unknown mode', () => {
    expect(taintModeOf(undefined, 'default')).toBe('ask');
    expect(taintModeOf(undefined, 'plan')).toBe('ask');
    expect(taintModeOf(undefined, 'yolo')).toBe('off');
    expect(taintModeOf('ask', 'yolo')).toBe('ask');
    expect(() => taintModeOf('block', 'default')).toThrow(
      "Unknown taint setting \"block\"; use one of 'ask', 'deny', 'off'.",
    );
    expect(createTaintSession().state).toBe(UNTAINTED);
  });
});
