import { describe, expect, test } from 'vitest';
import type { ServerLogger } from '../util/logger.js';
import { guardStrayRejections } from './stray-rejections.js';

function recordingLogger(): ServerLogger & { errors: string[] } {
  const errors: string[] = [];
  const logger = { errors, error: (message: string) => errors.push(message) } as unknown as ServerLogger & {
    errors: string[];
  };
  return logger;
}

describe('guardStrayRejections', () => {
  test('many servers share one process listener; each logger hears the rejection; the last release removes it', () => {
    const before = process.listenerCount('unhandledRejection');
    const loggers = Array.from({ length: 12 }, recordingLogger);
    const releases = loggers.map((logger) => guardStrayRejections(logger));
    expect(process.listenerCount('unhandledRejection')).toBe(before + 1);
    process.emit('unhandledRejection', new Error('stray'), Promise.resolve());
    for (const logger of loggers)
      expect(logger.errors).toEqual([expect.stringContaining('unhandled promise rejection')]);
    for (const release of releases.slice(1)) release();
    expect(process.listenerCount('unhandledRejection')).toBe(before + 1);
    releases[0]!();
    releases[0]!();
    expect(process.listenerCount('unhandledRejection')).toBe(before);
  });
});
