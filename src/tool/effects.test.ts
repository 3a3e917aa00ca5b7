import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../errors.js';
import { hintsFromEffects, resolveBehaviour } from './effects.js';

function refusal(fn: () => unknown): DefinitionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected a DefinitionError');
}

describe('effects resolve to all four hints', () => {
  it('makes a read tool read-only, non-destructive and idempotent', () => {
    expect(hintsFromEffects('read', 'closed')).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('makes an additive tool non-destructive and idempotent only when declared', () => {
    expect(hintsFromEffects('additive', 'open')).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(hintsFromEffects('additive', 'closed', true).idempotentHint).toBe(true);
  });

  it('makes a destructive tool destructive', () => {
    expect(hintsFromEffects('destructive', 'closed')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('marks every effect-derived hint as coming from the effect', () => {
    const r = resolveBehaviour('t', { effect: 'destructive', world: 'open', idempotent: true });
    expect(r.sources).toEqual({
      readOnlyHint: 'effect',
      destructiveHint: 'effect',
      idempotentHint: 'effect',
      openWorldHint: 'effect',
    });
    expect(r.undeclared).toBe(false);
  });

  it('marks idempotency of a write as defaulted when it was not declared', () => {
    expect(resolveBehaviour('t', { effect: 'additive', world: 'closed' }).sources.idempotentHint).toBe('default');
  });
});

describe('raw annotations resolve against the spec defaults', () => {
  it('fills every absent hint with the worst case and says so', () => {
    const r = resolveBehaviour('t', { annotations: { openWorldHint: false } });
    expect(r.hints).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(r.sources).toEqual({
      readOnlyHint: 'default',
      destructiveHint: 'default',
      idempotentHint: 'default',
      openWorldHint: 'annotation',
    });
    expect(r.effect).toBe('destructive');
    expect(r.undeclared).toBe(false);
  });

  it('treats a read-only annotation as non-destructive and idempotent', () => {
    const r = resolveBehaviour('t', { annotations: { readOnlyHint: true } });
    expect(r.hints).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(r.effect).toBe('read');
  });

  it('reads destructiveHint false as an additive tool', () => {
    expect(resolveBehaviour('t', { annotations: { readOnlyHint: false, destructiveHint: false } }).effect).toBe(
      'additive',
    );
  });

  it('resolves a tool that declares nothing to the worst case and marks it undeclared', () => {
    const r = resolveBehaviour('t', {});
    expect(r.undeclared).toBe(true);
    expect(r.hints).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
  });

  it('accepts effects and hints that agree', () => {
    const r = resolveBehaviour('t', { effect: 'read', world: 'closed', annotations: { readOnlyHint: true } });
    expect(r.hints.readOnlyHint).toBe(true);
  });

  it('takes the world from openWorldHint when effect is declared without world', () => {
    const r = resolveBehaviour('t', { effect: 'additive', annotations: { openWorldHint: true } });
    expect(r.world).toBe('open');
    expect(r.sources.openWorldHint).toBe('annotation');
  });
});

describe('contradictions are refused at definition time', () => {
  it('refuses effect read with readOnlyHint false, naming both fields', () => {
    const e = refusal(() =>
      resolveBehaviour('grab', { effect: 'read', world: 'closed', annotations: { readOnlyHint: false } }),
    );
    expect(e.message).toContain('annotations.readOnlyHint is false');
    expect(e.message).toContain("effect: 'read'");
    expect(e.fields).toEqual(expect.arrayContaining(['annotations.readOnlyHint', 'effect']));
  });

  it('refuses readOnlyHint true with destructiveHint true', () => {
    const e = refusal(() => resolveBehaviour('x', { annotations: { readOnlyHint: true, destructiveHint: true } }));
    expect(e.fields).toEqual(['annotations.readOnlyHint', 'annotations.destructiveHint']);
    expect(e.message).toMatch(/read-only tool cannot be destructive/);
  });

  it('refuses readOnlyHint true with idempotentHint false', () => {
    const e = refusal(() => resolveBehaviour('x', { annotations: { readOnlyHint: true, idempotentHint: false } }));
    expect(e.fields).toEqual(['annotations.readOnlyHint', 'annotations.idempotentHint']);
  });

  it('refuses a destructive effect with destructiveHint false', () => {
    const e = refusal(() =>
      resolveBehaviour('rm', { effect: 'destructive', world: 'closed', annotations: { destructiveHint: false } }),
    );
    expect(e.fields).toContain('annotations.destructiveHint');
  });

  it('refuses world that disagrees with openWorldHint', () => {
    const e = refusal(() =>
      resolveBehaviour('w', { effect: 'additive', world: 'closed', annotations: { openWorldHint: true } }),
    );
    expect(e.message).toContain("world: 'closed'");
    expect(e.fields).toEqual(['annotations.openWorldHint', 'world']);
  });

  it('refuses a read effect declared non-idempotent', () => {
    expect(refusal(() => resolveBehaviour('r', { effect: 'read', world: 'closed', idempotent: false })).fields).toEqual(
      ['effect', 'idempotent'],
    );
  });

  it('refuses an effect without a world', () => {
    expect(refusal(() => resolveBehaviour('r', { effect: 'read' })).fields).toEqual(['world']);
  });

  it('refuses world or idempotent without an effect', () => {
    expect(refusal(() => resolveBehaviour('r', { world: 'open' })).fields).toEqual(['effect']);
  });

  it('refuses unknown effect and non-boolean hints', () => {
    expect(refusal(() => resolveBehaviour('r', { effect: 'write' as never, world: 'open' })).message).toContain(
      "'read', 'additive', 'destructive'",
    );
    expect(refusal(() => resolveBehaviour('r', { annotations: { readOnlyHint: 'yes' as never } })).fields).toEqual([
      'annotations.readOnlyHint',
    ]);
  });
});
