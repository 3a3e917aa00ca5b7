import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines.js';

// The clock is fake: deadlines fire exactly when their time comes, however busy the machine.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Deadlines', () => {
  it('expires deadlines of one limit in the order they started, each once', () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(20, () => fired.push('a'));
    vi.advanceTimersByTime(5);
    deadlines.add(20, () => fired.push('b'));
    vi.advanceTimersByTime(14);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a']);
    vi.advanceTimersByTime(5);
    expect(fired).toEqual(['a', 'b']);
    vi.advanceTimersByTime(100);
    expect(fired).toEqual(['a', 'b']);
  });

  it('never expires a cleared deadline, and keeps the others', () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    const a = deadlines.add(15, () => fired.push('a'));
    deadlines.add(15, () => fired.push('b'));
    deadlines.clear(a);
    deadlines.clear(a); // twice is harmless
    vi.advanceTimersByTime(50);
    expect(fired).toEqual(['b']);
  });

  it('keeps separate limits apart: a shorter limit added later expires first', () => {
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(60, () => fired.push('long'));
    deadlines.add(10, () => fired.push('short'));
    vi.advanceTimersByTime(35);
    expect(fired).toEqual(['short']);
    vi.advanceTimersByTime(25);
    expect(fired).toEqual(['short', 'long']);
  });

  it('counts from the given start time', () => {
    const deadlines = new Deadlines();
    let fired = false;
    deadlines.add(
      1_000,
      () => {
        fired = true;
      },
      performance.now() - 990,
    );
    vi.advanceTimersByTime(9);
    expect(fired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(true);
  });
});
