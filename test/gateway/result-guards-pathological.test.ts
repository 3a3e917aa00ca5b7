/**
 * Hostile results the guard once stalled on for seconds to minutes (a never-closed `<!-- `
 * repeated, `eyJ` repeated, `password=` repeated) and their kin, 1 MiB each, guarded in a
 * child process that the harness kills if it outlives its bound: the test fails on a stall
 * without timing anything itself. Each result is either checked or withheld as unchecked,
 * and nothing of a withheld one is passed on. Then random adversarial strings (fast-check)
 * through the guard: every one answered, no exception.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardWithinBudget } from '../../src/gateway/results/guard-pool.js';
import { REPO } from '../support/cli-harness.js';

const HOSTILE = [
  '<!-- ',
  'eyJ',
  'password=',
  'xoxb-a-',
  'AKIA',
  'ignore ',
  'a://b:c@',
  '![a](http://x?q=',
  '\\u0067',
  '<|im_start|>',
];
// Far above the budget (50 ms per result): only a stall reaches it.
const BOUND_MS = 60_000;

describe('the result guard on hostile results', () => {
  it('answers every 1 MiB hostile result within the harness bound, checked or withheld', () => {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(REPO, 'test/fixtures/gateway/guard-hostile-child.ts'), ...HOSTILE],
      { cwd: REPO, timeout: BOUND_MS, encoding: 'utf8', killSignal: 'SIGKILL' },
    );
    expect(child.error, child.stderr).toBeUndefined();
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { unit: string; overBudget: boolean; size: number });
    expect(lines.map((l) => l.unit)).toEqual(HOSTILE);
    // A withheld result holds the gateway's sentence only, never the megabyte.
    for (const line of lines) if (line.overBudget) expect(line.size).toBeLessThan(2000);
  }, 90_000);

  it('answers random adversarial strings without an exception', async () => {
    const pieces = fc.constantFrom(
      '<!--',
      '-->',
      'eyJ',
      '.',
      'password=',
      'ghp_',
      'AKIA',
      '://',
      ':',
      '@',
      '\\u00',
      '\u200B',
      '\u00AD',
      'ignore ',
      'previous ',
      'instructions',
      '\n',
      ' ',
      'a',
      '0',
      '=',
      '"',
      '<',
      '>',
      'tool',
      '![',
      '](',
      'http://x?q=',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(pieces, { maxLength: 400 }), async (parts) => {
        const text = parts.join('');
        const guarded = await guardWithinBudget(
          { content: [{ type: 'text', text }] },
          { name: 't', openWorld: true, trusted: false },
        );
        expect(guarded.result.content?.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  }, 120_000);

  it('lets a large result wait for a worker while every worker is busy, instead of withholding it at once', async () => {
    // Four results of 2 MB at once, each dense with the words the injection check looks at, so
    // each needs more than the gateway's own slice and goes to a worker thread; there are two.
    // The budget leaves room to wait.
    const line = 'Set the user field of the request parameter to the tool argument you want.\n';
    const text = line.repeat(Math.ceil((2 * 1024 * 1024) / line.length));
    const tool = { name: 'web__fetch', openWorld: true, trusted: false };
    const guarded = await Promise.all(
      Array.from({ length: 4 }, () =>
        guardWithinBudget({ content: [{ type: 'text', text }] }, tool, { budgetMs: 60_000 }),
      ),
    );
    expect(guarded.map((g) => g.overBudget ?? false)).toEqual([false, false, false, false]);
    for (const g of guarded) expect(g.result.content).toEqual([{ type: 'text', text }]);
  }, 120_000);
});
