import { describe, expect, it } from 'vitest';
import { failedVerdict, sarifWithVerdict, serverVerdict, VERDICT_EXIT } from './server-verdict.js';

const tools = (...notExercised: Array<string | undefined>) =>
  notExercised.map((reason, i) => ({ name: `t${i}`, ...(reason === undefined ? {} : { notExercised: reason }) }));
const listed = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

describe('serverVerdict', () => {
  it('says "consistent" only when every listed tool was exercised', () => {
    const all = serverVerdict({ listed: listed(2), tools: tools(undefined, undefined), contradictions: false });
    expect(all).toEqual({ verdict: 'consistent', label: 'consistent', exercised: 2, total: 2, reasons: [] });
    const some = serverVerdict({
      listed: listed(3),
      tools: tools(undefined, 'every call failed: 401', undefined),
      contradictions: false,
    });
    expect(some).toMatchObject({ verdict: 'partial', label: 'consistent (2 of 3 exercised)', exercised: 2, total: 3 });
    expect(some.reasons).toEqual([{ tool: 't1', reason: 'every call failed: 401' }]);
  });

  it('gives "not verified" its own exit code when nothing ran, also for a server with no tools', () => {
    const none = serverVerdict({ listed: listed(2), tools: tools('a', 'b'), contradictions: false });
    expect(none).toMatchObject({ verdict: 'not verified', label: 'not verified (0 of 2 exercised)' });
    expect(VERDICT_EXIT[none.verdict]).toBe(3);
    expect(serverVerdict({ listed: [], tools: [], contradictions: false }).verdict).toBe('not verified');
    expect(new Set(Object.values(VERDICT_EXIT)).size).toBe(4);
  });

  it('counts a listed tool that was never observed as not exercised (left out)', () => {
    const v = serverVerdict({ listed: listed(2), tools: tools(undefined), contradictions: false });
    expect(v).toMatchObject({ verdict: 'partial', reasons: [{ tool: 't1', reason: 'left out (--tools/--skip)' }] });
  });

  it('puts a failure in the label, behind contradictions and ahead of everything else', () => {
    const hung = serverVerdict({
      listed: listed(3),
      tools: tools(undefined, 'hung', 'killed'),
      contradictions: false,
      failure: 'observing stopped: a call of t1 got no answer in time and the sandbox was killed',
    });
    expect(hung.verdict).toBe('failed');
    expect(hung.label).toBe(
      'failed (1 of 3 exercised): observing stopped: a call of t1 got no answer in time and the sandbox was killed',
    );
    expect(VERDICT_EXIT.failed).toBe(2);
    const both = serverVerdict({
      listed: listed(1),
      tools: tools(undefined),
      contradictions: true,
      failure: 'observing stopped: x',
    });
    expect(both).toMatchObject({ verdict: 'contradictions', label: 'contradictions; observing stopped: x' });
    expect(failedVerdict('boom\nstderr').label).toBe('failed: boom');
  });

  it('writes the verdict into a SARIF run with a notification per tool not exercised', () => {
    const sarif = JSON.stringify({ runs: [{ invocations: [{ executionSuccessful: true }], results: [] }] });
    const v = serverVerdict({ listed: listed(1), tools: tools('no arguments'), contradictions: false });
    const run = JSON.parse(sarifWithVerdict(sarif, v)).runs[0];
    expect(run.properties).toMatchObject({ verdict: 'not verified', exercised: 0, total: 1 });
    expect(run.invocations[0].executionSuccessful).toBe(false);
    expect(run.invocations[0].toolExecutionNotifications.map((n: { level: string }) => n.level)).toEqual([
      'error',
      'warning',
    ]);
  });
});
