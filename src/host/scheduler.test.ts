import { describe, expect, it } from 'vitest';
import { type CallPlan, schedule } from './scheduler.js';
import type { CallOutcome, CallStatus } from './types.js';

/** A host stand-in that records what it was asked to run and how much overlapped. */
function harness(statuses: CallStatus[]) {
  const log: string[] = [];
  let inFlight = 0;
  let max = 0;
  const outcome = (index: number, status: CallStatus): CallOutcome => ({
    index,
    tool: `t${index}`,
    status,
    untrustedContent: false,
    attempts: 1,
    parallel: false,
    warnings: [],
  });
  return {
    log,
    max: () => max,
    hooks: {
      perform: async (index: number) => {
        inFlight++;
        max = Math.max(max, inFlight);
        log.push(`start ${index}`);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        log.push(`end ${index}`);
        return outcome(index, statuses[index] ?? 'ok');
      },
      skipped: (index: number) => outcome(index, 'skipped'),
      cancelled: (index: number) => outcome(index, 'cancelled'),
    },
  };
}

const read: CallPlan = { parallel: true, write: false, label: 'read' };
const write: CallPlan = { parallel: false, write: true, label: 'write' };

describe('schedule', () => {
  it('never has more than the cap in flight', async () => {
    const h = harness([]);
    await schedule(Array(10).fill(read), h.hooks, { concurrency: 3 });
    expect(h.max()).toBe(3);
  });

  it('runs a barrier alone, after the group before it and before the group after it', async () => {
    const h = harness([]);
    await schedule([read, read, write, read], h.hooks, { concurrency: 8 });
    expect(h.log.slice(0, 4).sort()).toEqual(['end 0', 'end 1', 'start 0', 'start 1']);
    expect(h.log.slice(4)).toEqual(['start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('skips everything after a failed write, but not after a failed read', async () => {
    const h = harness(['error', 'ok', 'error', 'ok']);
    const outcomes = await schedule([read, read, write, read], h.hooks, { concurrency: 8 });
    expect(outcomes.map((o) => o.status)).toEqual(['error', 'ok', 'error', 'skipped']);
    expect(h.log).not.toContain('start 3');
  });

  it('starts nothing when the signal is already aborted', async () => {
    const h = harness([]);
    const controller = new AbortController();
    controller.abort();
    const outcomes = await schedule([read, write], h.hooks, { concurrency: 8, signal: controller.signal });
    expect(outcomes.map((o) => o.status)).toEqual(['cancelled', 'cancelled']);
    expect(h.log).toEqual([]);
  });
});
