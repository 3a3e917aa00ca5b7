import { describe, expect, it } from 'vitest';
import { type LintProgress, lintTargets } from './lint-targets.js';
import type { Target } from './types.js';

const exiting = (label: string): Target => ({
  kind: 'stdio',
  command: process.execPath,
  args: ['-e', `setTimeout(() => process.exit(1), 50)`],
  label,
});

describe('lintTargets', () => {
  it('checks servers concurrently but never more than the cap, and keeps target order', async () => {
    let running = 0;
    let peak = 0;
    const events: LintProgress[] = [];
    const targets = ['a', 'b', 'c', 'd', 'e'].map(exiting);
    const reports = await lintTargets(targets, {
      concurrency: 2,
      timeoutMs: 20_000,
      onProgress: (e) => {
        events.push(e);
        running += e.type === 'start' ? 1 : -1;
        peak = Math.max(peak, running);
      },
    });
    expect(peak).toBe(2);
    expect(reports.map((r) => `${r.label}:${r.status}`)).toEqual([
      'a:failed',
      'b:failed',
      'c:failed',
      'd:failed',
      'e:failed',
    ]);
    expect(events.filter((e) => e.type === 'done').map((e) => (e.type === 'done' ? e.finished : 0))).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });

  it('reports an invalid config entry as failed with its reason', async () => {
    const [report] = await lintTargets([{ kind: 'invalid', label: 'x', reason: 'x: "command" is missing.' }]);
    expect(report).toMatchObject({ status: 'failed', error: 'x: "command" is missing.', errorCode: 'invalid_target' });
  });
});
