/**
 * What the framework adapters stand on, over a real stdio server
 * that logs what reaches it: host.decide() decides on a call's own path and
 * changes nothing; an approval obtained elsewhere, bound to the pin hash,
 * answers instead of onConfirm; the step batcher turns calls started together
 * into one batch (reads overlap, writes one at a time in order).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConfirmAnswer, type ConfirmRequest, createStepBatcher } from '../../src/host/index.js';
import { type NotesHost, notesHost, readsOverlapped, started, writeOverlaps } from '../support/notes-host.js';

let notes: NotesHost;
const onConfirm = vi.fn((_request: ConfirmRequest): ConfirmAnswer => 'deny');

beforeAll(async () => {
  notes = await notesHost({ onConfirm });
});
afterAll(async () => {
  await notes?.close();
});

describe('host.decide', () => {
  it('allows a trusted read, asks for a destructive call and an untrusted read, with the pin hash', async () => {
    const { host } = notes;
    const read = await host.decide('notes__read_note', { name: 'todo' });
    expect(read).toMatchObject({
      decision: 'allow',
      tool: 'notes__read_note',
      pinHash: host.tool('notes__read_note')!.hash,
    });
    const del = await host.decide('notes__delete_note', { name: 'todo' });
    expect(del.decision).toBe('ask');
    expect(del.reason).toMatch(/destructive/);
    expect(del.canRemember).toBe(false);
    const stranger = await host.decide('stranger__read_note', { name: 'todo' });
    expect(stranger.decision).toBe('ask');
    expect(stranger.reason).toMatch(/not trusted/);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(notes.log()).toEqual([]);
  });

  it('denies an unknown tool with a reason, without a pin hash', async () => {
    const decision = await notes.host.decide('notes__nope');
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toMatch(/no tool named notes__nope/);
    expect(decision.pinHash).toBeUndefined();
  });

  it('rejects a tool name that is not a string', async () => {
    await expect(notes.host.decide(42 as unknown as string)).rejects.toThrow(/tool name/);
  });
});

describe('calls carrying an approval', () => {
  it('runs an approved destructive call once without asking onConfirm', async () => {
    const { host } = notes;
    notes.clear();
    onConfirm.mockClear();
    const { pinHash } = await host.decide('notes__delete_note', { name: 'todo' });
    const outcome = await host.call('notes__delete_note', { name: 'todo' }, { approval: { pinHash: pinHash! } });
    expect(outcome.status).toBe('ok');
    expect(onConfirm).not.toHaveBeenCalled();
    expect(started(notes.log(), 'delete_note')).toHaveLength(1);
  });

  it('asks again when the approval was for another definition, and headless-denied it never reaches the server', async () => {
    const { host } = notes;
    notes.clear();
    onConfirm.mockClear();
    const outcome = await host.run([
      { tool: 'notes__delete_note', args: { name: 'x' }, approval: { pinHash: 'sha256:not-this-one' } },
    ]);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onConfirm.mock.calls[0]![0].reason).toMatch(/changed since the call was approved/);
    expect(outcome[0]!.status).toBe('denied');
    expect(started(notes.log(), 'delete_note')).toEqual([]);
  });

  it('never turns a denial into an allow', async () => {
    const { host } = notes;
    const { pinHash } = await host.decide('notes__read_note');
    const outcome = await host.run([{ tool: 'notes__nope', approval: { pinHash: pinHash! } }]);
    expect(outcome[0]!.status).toBe('error');
  });
});

describe('the step batcher', () => {
  it('overlaps two reads started together at the server', async () => {
    notes.clear();
    const step = createStepBatcher(notes.host);
    const outcomes = await Promise.all([
      step.call({ tool: 'notes__read_note', args: { name: 'a' } }),
      Promise.resolve().then(() => step.call({ tool: 'notes__read_note', args: { name: 'b' } })),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
    expect(outcomes.every((o) => o.parallel)).toBe(true);
    expect(readsOverlapped(notes.log())).toBe(true);
  });

  it('runs two writes started together one at a time, in the order given', async () => {
    notes.clear();
    const step = createStepBatcher(notes.host, { run: { concurrency: 4 } });
    const run = notesWithAllow();
    const outcomes = await Promise.all([
      step.call({ tool: 'notes__write_note', args: { name: 'one', text: '1' }, approval: run('notes__write_note') }),
      step.call({ tool: 'notes__write_note', args: { name: 'two', text: '2' }, approval: run('notes__write_note') }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
    const log = notes.log();
    expect(writeOverlaps(log)).toEqual([]);
    expect(started(log, 'write_note').map((e) => e.args.name)).toEqual(['one', 'two']);
  });

  it('keeps a late call out of a running batch: it waits and runs next', async () => {
    notes.clear();
    const step = createStepBatcher(notes.host);
    const run = notesWithAllow();
    const first = step.call({
      tool: 'notes__write_note',
      args: { name: 'first', text: '1' },
      approval: run('notes__write_note'),
    });
    await new Promise((resolve) => setImmediate(resolve));
    const late = step.call({ tool: 'notes__read_note', args: { name: 'first' } });
    const [a, b] = await Promise.all([first, late]);
    expect([a.status, b.status]).toEqual(['ok', 'ok']);
    expect(writeOverlaps(notes.log())).toEqual([]);
    expect(b.result?.content).toEqual([{ type: 'text', text: '1' }]);
  });

  it('lets a read that arrives a turn later overlap the reads in flight (LangGraph starts calls apart)', async () => {
    notes.clear();
    const step = createStepBatcher(notes.host);
    const first = step.call({ tool: 'notes__read_note', args: { name: 'a' } });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const late = step.call({ tool: 'notes__read_note', args: { name: 'b' } });
    expect((await Promise.all([first, late])).map((o) => o.status)).toEqual(['ok', 'ok']);
    expect(readsOverlapped(notes.log())).toBe(true);
  });

  it('holds a write that arrives while reads run until they end, and the reads behind it until it ends', async () => {
    notes.clear();
    const step = createStepBatcher(notes.host);
    const run = notesWithAllow();
    const read = step.call({ tool: 'notes__read_note', args: { name: 'a' } });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const write = step.call({
      tool: 'notes__write_note',
      args: { name: 'w', text: '1' },
      approval: run('notes__write_note'),
    });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const after = step.call({ tool: 'notes__read_note', args: { name: 'w' } });
    const outcomes = await Promise.all([read, write, after]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok', 'ok']);
    expect(writeOverlaps(notes.log())).toEqual([]);
    expect(outcomes[2]!.result?.content).toEqual([{ type: 'text', text: '1' }]);
  });
});

/** Approvals for writes, as a framework would carry them after asking the person. */
function notesWithAllow() {
  return (tool: string) => ({ pinHash: notes.host.tool(tool)!.hash });
}
