import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallRecord } from './evidence.js';
import { OwnLogs } from './own-log.js';
import { diffSnapshots, snapshot } from './snapshot.js';
import type { TracedEffect } from './trace.js';

let dir: string;
let log: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'candor-own-log-'));
  log = path.join(dir, 'server.log');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const opened = (file: string): TracedEffect => ({
  kind: 'write',
  path: file,
  line: `1 openat(AT_FDCWD, "${file}") = 3`,
});

/** One call that runs `change` between two snapshots; returns the record after the own-log check. */
async function call(
  change: () => void,
  options: { before?: TracedEffect[]; during?: TracedEffect[]; initial?: string[]; args?: object } = {},
): Promise<CallRecord> {
  writeFileSync(log, '{"msg":"started"}\n');
  const logs = new OwnLogs(new Set(options.initial ?? []));
  logs.saw(options.before ?? [opened(log)]);
  const before = await snapshot([dir]);
  change();
  const record: CallRecord = {
    args: { ...options.args },
    ok: true,
    effects: options.during ?? [],
    diff: diffSnapshots(before, await snapshot([dir])),
  };
  await logs.setAside(record, before);
  return record;
}

const append = (text: string | Buffer) => () => appendFileSync(log, text);

describe('the server’s own log', () => {
  it('is a file opened before the call, made by the server, that the call only lengthened by lines of text', async () => {
    const record = await call(append('{"msg":"tool called"}\n'));
    expect(record.diff.logged).toEqual([log]);
    expect(record.diff.modified).toEqual([]);
  });

  it('is not a file the call opened itself', async () => {
    const record = await call(append('{"msg":"tool called"}\n'), { during: [opened(log)] });
    expect(record.diff.modified).toEqual([log]);
    expect(record.diff.logged).toBeUndefined();
  });

  it('is not a file the trace never showed opened for writing before the call', async () => {
    const record = await call(append('line\n'), { before: [] });
    expect(record.diff.modified).toEqual([log]);
  });

  it('is not a file that was there before the server started', async () => {
    const record = await call(append('line\n'), { initial: [log] });
    expect(record.diff.modified).toEqual([log]);
  });

  it('is not a file whose old content changed, nor one that only shrank or kept its size', async () => {
    const rewritten = await call(() => writeFileSync(log, '{"msg":"STARTED"}\nmore\n'));
    expect(rewritten.diff.modified).toEqual([log]);
    const sameSize = await call(() => writeFileSync(log, '{"msg":"stopped"}\n'));
    expect(sameSize.diff.modified).toEqual([log]);
  });

  it('is not a file that gained binary bytes or half a line', async () => {
    expect((await call(append(Buffer.from([1, 0, 0, 7, 10])))).diff.modified).toEqual([log]);
    expect((await call(append(Buffer.from([0xff, 0xfe, 10])))).diff.modified).toEqual([log]);
    expect((await call(append('no newline yet'))).diff.modified).toEqual([log]);
  });

  it('is not a file the call’s arguments name', async () => {
    const record = await call(append('line\n'), { args: { path: log } });
    expect(record.diff.modified).toEqual([log]);
  });

  it('counts a file opened in one call as opened before the next', async () => {
    writeFileSync(log, '');
    const logs = new OwnLogs(new Set());
    const first = await snapshot([dir]);
    appendFileSync(log, 'one\n');
    const opening: CallRecord = {
      args: {},
      ok: true,
      effects: [opened(log)],
      diff: diffSnapshots(first, await snapshot([dir])),
    };
    await logs.setAside(opening, first);
    expect(opening.diff.modified).toEqual([log]);
    const second = await snapshot([dir]);
    appendFileSync(log, 'two\n');
    const next: CallRecord = { args: {}, ok: true, effects: [], diff: diffSnapshots(second, await snapshot([dir])) };
    await logs.setAside(next, second);
    expect(next.diff.logged).toEqual([log]);
  });
});
