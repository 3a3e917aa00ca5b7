import { describe, expect, it } from 'vitest';
import { answersDiffer } from './answers.js';
import { readAnswer } from './read-answer.js';
import { inCopy } from './sandbox.js';

describe('answersDiffer', () => {
  it('ignores timestamps, UUIDs, durations, long hex ids and epoch numbers', () => {
    expect(
      answersDiffer(
        'set at 2026-01-01T00:00:00.123Z (id 6f1c2b1e-0d7a-4c53-9f39-2f3f6bb1c0aa, 12ms, etag 9f86d081884c7d65, t=1795665925748)',
        'set at 2026-01-01T00:00:04.999Z (id 0b7d2a43-1111-4c53-9f39-2f3f6bb1c0ab, 7ms, etag 2c26b46b68ffc68f, t=1795665929999)',
      ),
    ).toBeUndefined();
  });

  it('reports a counter or a list that moved, with an excerpt around the difference', () => {
    expect(answersDiffer('Added task 1 to the list', 'Added task 2 to the list')).toEqual({
      first: 'Added task 1 to the list',
      again: 'Added task 2 to the list',
    });
  });
});

describe('answersDiffer as readings (read-only tools)', () => {
  it('also ignores generated ids, process ids, percentages and sizes', () => {
    const reading = { reading: true };
    expect(
      answersDiffer(
        'session search_1_1795665925748 pid 412 cpu 3.5% rss 120 MB',
        'session search_2_1795665926001 pid 977 cpu 12% rss 98 MB',
        reading,
      ),
    ).toBeUndefined();
    expect(answersDiffer('trace V1StGbR8_Z5jdHi6B-myT', 'trace 4f9Kq2Lm0pXz7RtYb1Cd', reading)).toBeUndefined();
    // base64url ids that begin or end with "-" are ids all the same.
    expect(answersDiffer('trace -Xq3vB9kLm2pRt7wZ.', 'trace 8Hn4Kq2Lm0pXz7RtY-.', reading)).toBeUndefined();
    // Random ids without a digit (one 16-character base64url id in 15 has none).
    expect(answersDiffer('trace vQKtDgEdCGPApaTg.', 'trace mWzRbQeHtKfYcLsN.', reading)).toBeUndefined();
    expect(answersDiffer('trace vQKt_gEdCGPApaTg.', 'trace mWzR-QeHtKfYcLsN.', reading)).toBeUndefined();
  });

  it('still reports a list that grew or a counter that moved', () => {
    const reading = { reading: true };
    expect(answersDiffer('{"searches":["a"]}', '{"searches":["a","a"]}', reading)).toBeDefined();
    expect(answersDiffer('viewed 1 times', 'viewed 2 times', reading)).toBeDefined();
    expect(answersDiffer('notes: note-0001', 'notes: note-0001, note-0002', reading)).toBeDefined();
    // Names are not ids: a camelCase or snake_case name that changes is a change.
    expect(answersDiffer('open: readConfigurationFile', 'open: writeConfigurationFile', reading)).toBeDefined();
    expect(
      answersDiffer('last: create_pull_request_review', 'last: delete_pull_request_review', reading),
    ).toBeDefined();
  });

  it('keeps the stricter comparison for repeats of non-read-only tools', () => {
    expect(answersDiffer('pid 412 took 3%', 'pid 413 took 3%')).toBeDefined();
  });
});

describe('readAnswer', () => {
  it('takes isError and errors said in words as failures, and text that merely mentions an error as an answer', () => {
    expect(readAnswer({ isError: true, content: [{ type: 'text', text: 'nope' }] }).error).toBe('nope');
    expect(readAnswer({ content: [{ type: 'text', text: 'Error: no database' }] }).error).toContain(
      'answered as text, without isError',
    );
    expect(readAnswer({ content: [{ type: 'text', text: '{"error": "bad table"}' }] }).error).toBeDefined();
    expect(readAnswer({ content: [{ type: 'text', text: '{"error": null, "rows": []}' }] }).error).toBeUndefined();
    expect(readAnswer({ content: [{ type: 'text', text: 'Errors found: 0' }] }).error).toBeUndefined();
    expect(readAnswer({ content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } }).text).toBe(
      'ok\n{"n":1}',
    );
  });
});

describe('readAnswer and error objects', () => {
  const said = (value: unknown) => readAnswer({ content: [{ type: 'text', text: JSON.stringify(value) }] }).error;

  it('takes success: false, ok: false, an error field, status "error" and GraphQL errors without data as failures', () => {
    expect(said({ success: false, error: 'quota exceeded' })).toBe(
      'answered an error object (success: false): quota exceeded',
    );
    expect(said({ ok: false, error: 'invalid_auth' })).toBe('answered an error object (ok: false): invalid_auth');
    expect(said({ error: { code: 404, message: 'no such user' } })).toBe(
      'answered an error object (an error field): no such user',
    );
    expect(said({ status: 'error', message: 'bad token' })).toBe(
      'answered an error object (status: "error"): bad token',
    );
    expect(said({ data: null, errors: [{ message: 'Field "x" not found' }] })).toBe(
      'answered an error object (errors, no data): Field "x" not found',
    );
    expect(readAnswer({ content: [], structuredContent: { success: false } }).error).toBe(
      'answered an error object (success: false)',
    );
  });

  it('leaves data alone: a job whose status is failed, a null error, GraphQL data beside errors, success: true', () => {
    expect(said({ id: 7, status: 'failed' })).toBeUndefined();
    expect(said({ error: null, rows: [] })).toBeUndefined();
    expect(said({ data: { a: 1 }, errors: [{ message: 'partial' }] })).toBeUndefined();
    expect(said({ success: true, items: [] })).toBeUndefined();
    expect(said([{ error: 'in an item' }])).toBeUndefined();
  });

  it('keeps a long error whole up to its bound, saying how much was left out beyond it', () => {
    const long = `${'x '.repeat(1000)}the real cause`;
    expect(readAnswer({ isError: true, content: [{ type: 'text', text: long }] }).error).toBe(long.trim());
    const huge = 'y'.repeat(20_000);
    expect(readAnswer({ isError: true, content: [{ type: 'text', text: huge }] }).error).toMatch(
      /^y{16384}… \(3616 more characters\)$/,
    );
  });
});

describe('inCopy', () => {
  it('rewrites {workdir} and the real workdir anywhere in a value, never a longer name that starts like it', () => {
    expect(inCopy('sqlite:///home/me/proj/app.db', '/home/me/proj', '/tmp/c/work')).toBe('sqlite:///tmp/c/work/app.db');
    expect(inCopy('--root=/home/me/proj', '/home/me/proj', '/tmp/c/work')).toBe('--root=/tmp/c/work');
    expect(inCopy('/home/me/project2/x', '/home/me/proj', '/tmp/c/work')).toBe('/home/me/project2/x');
    expect(inCopy('{workdir}/data', '/home/me/proj', '/tmp/c/work')).toBe('/tmp/c/work/data');
  });
});
