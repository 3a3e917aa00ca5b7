import { describe, expect, test } from 'vitest';
import type { ResolvedHints } from '../../tool/types.js';
import { checkScriptLimits, limitProblem } from './limits.js';
import { scriptEffects, WORST_CASE_HINTS } from './script-effects.js';

const read: ResolvedHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const fetch: ResolvedHints = { ...read, openWorldHint: true };
const post: ResolvedHints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const wipe: ResolvedHints = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
const hints: Record<string, ResolvedHints> = { a__read: read, a__fetch: fetch, a__post: post, a__wipe: wipe };
const of = (name: string) => hints[name];

describe('scriptEffects', () => {
  test('read-only and idempotent only when every call is; destructive or open world when any is', () => {
    expect(scriptEffects('await tools.a__read({}); return tools["a__read"]({});', of).hints).toEqual(read);
    expect(scriptEffects('await tools.a__read({}); await tools.a__fetch({});', of).hints).toEqual(fetch);
    expect(scriptEffects('await tools.a__read({}); await tools.a__wipe({});', of).hints).toEqual(wipe);
    expect(scriptEffects('await tools.a__wipe({}); await tools.a__post({});', of).hints).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  test('a script that calls no tool is read-only', () => {
    expect(scriptEffects('return 1 + 1;', of)).toMatchObject({ hints: read, calls: [], dynamic: false });
  });

  test('computed names make the script the worst it could be, whatever it names besides', () => {
    const effects = scriptEffects('await tools.a__read({}); const n = "a__wipe"; await tools[n]({});', of);
    expect(effects.dynamic).toBe(true);
    expect(effects.hints).toEqual(WORST_CASE_HINTS);
  });

  test('names no tool has are set apart: they are not offered, so they add no effect', () => {
    expect(scriptEffects('await tools.a__read({}); await tools.gone({});', of)).toMatchObject({
      hints: read,
      calls: [{ tool: 'a__read' }],
      missing: ['gone'],
    });
  });
});

describe('script limits', () => {
  test('each limit has a range; a value outside it, or not a whole number, is named', () => {
    expect(limitProblem('maxCalls', 1)).toBeUndefined();
    expect(limitProblem('maxCalls', 1.5)).toBe('must be a whole number from 1 to 10000 (calls); got 1.5.');
    expect(limitProblem('stackBytes', 1024 * 1024)).toBe(
      'must be a whole number from 32768 to 262144 (bytes); got 1048576.',
    );
    expect(() => checkScriptLimits({ cpuMs: 5, nope: 1 }, 'limits')).toThrow(
      'limits.cpuMs must be a whole number from 10 to 600000 (ms); got 5. limits.nope is not a script limit',
    );
  });
});
