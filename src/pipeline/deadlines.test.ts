import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines.js';

// Fake timers (setTimeout and performance.now): the deadlines fire when the clock says so.
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('Deadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('expires deadlines of one limit in the order they started, each once', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(20, () => fired.push('a'));
    await sleep(5);
    deadlines.add(20, () => fired.push('b'));
    await sleep(14);
    expect(fired).toEqual([]);
    await sleep(1);
    expect(fired).toEqual(['a']);
    await sleep(5);
    expect(fired).toEqual(['a', 'b']);
  });

  it('never expires a cleared deadline, and keeps the others', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    const a = deadlines.add(15, () => fired.push('a'));
    deadlines.add(15, () => fired.push('b'));
    deadlines.clear(a);
    deadlines.clear(a); // twice is harmless
    await sleep(50);
    expect(fired).toEqual(['b']);
  });

  it('keeps separate limits apart: a shorter limit added later expires first', async () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(60, () => fired.push('long'));
    deadlines.add(10, () => fired.push('short'));
    await sleep(35);
    expect(fired).toEqual(['short']);
    await sleep(60);
    expect(fired).toEqual(['short', 'long']);
  });

  it('counts from the given start time', async () => {
    const deadlines = new Deadlines();
    let fired = false;
    deadlines.add(
      1_000,
      () => {
        fired = true;
      },
      performance.now() - 990,
    );
    await sleep(9);
    expect(fired).toBe(false);
    await sleep(1);
    expect(fired).toBe(true);
  });
});
