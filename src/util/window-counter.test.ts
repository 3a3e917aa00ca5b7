import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { WindowCounter, type WindowResult } from './window-counter.js';

describe('WindowCounter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const refused = (promise: Promise<WindowResult>) =>
    promise.then(
      () => undefined,
      (result: WindowResult) => result,
    );

  test('lets `points` calls through in a window and refuses the next with the time left', async () => {
    const counter = new WindowCounter({ points: 2, duration: 10 });
    expect(await counter.consume('a')).toMatchObject({
      remainingPoints: 1,
      consumedPoints: 1,
      isFirstInDuration: true,
    });
    vi.advanceTimersByTime(4_000);
    expect(await counter.consume('a')).toMatchObject({
      remainingPoints: 0,
      consumedPoints: 2,
      isFirstInDuration: false,
    });
    expect(await refused(counter.consume('a'))).toEqual({
      msBeforeNext: 6_000,
      remainingPoints: 0,
      consumedPoints: 3,
      isFirstInDuration: false,
    });
  });

  test('opens a new window once the old one ends', async () => {
    const counter = new WindowCounter({ points: 1, duration: 0.5 });
    await counter.consume('a');
    expect(await refused(counter.consume('a'))).toMatchObject({ msBeforeNext: 500 });
    vi.advanceTimersByTime(500);
    expect(await counter.consume('a')).toMatchObject({ consumedPoints: 1, isFirstInDuration: true });
  });

  test('counts each key apart', async () => {
    const counter = new WindowCounter({ points: 1, duration: 60 });
    await counter.consume('a');
    await expect(counter.consume('b')).resolves.toMatchObject({ consumedPoints: 1 });
    expect(await refused(counter.consume('a'))).toBeDefined();
  });

  test('drops ended windows as keys pile up, so memory follows the live keys', async () => {
    const counter = new WindowCounter({ points: 1, duration: 1 });
    for (let i = 0; i < 1024; i++) await counter.consume(`old-${i}`);
    expect(counter.size).toBe(1024);
    vi.advanceTimersByTime(1_000);
    await counter.consume('new');
    expect(counter.size).toBe(1);
    // An old key starts afresh, and a live one is still counted.
    await expect(counter.consume('old-1')).resolves.toMatchObject({ isFirstInDuration: true });
    expect(await refused(counter.consume('new'))).toBeDefined();
  });
});
