/**
 * Code mode for agents on `candor/host`, over a real stdio server that logs
 * what reaches it: reads a script makes run without a question; the first call
 * the host's policy asks about asks once with the plan, allowing runs the rest,
 * denying stops the script and the server never sees the call; the host's own
 * onConfirm is never used for a script's calls; untrusted content that arrives after
 * the allow makes the next call the taint rule asks about ask again.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiDeclarations,
  type ConfirmAnswer,
  type ConfirmRequest,
  runHostScript,
  ScriptError,
  type ScriptQuestion,
} from '../../src/host/index.js';
import { type NotesHost, notesHost, started } from '../support/notes-host.js';

let notes: NotesHost;
const onConfirm = vi.fn((_request: ConfirmRequest): ConfirmAnswer => 'deny');

beforeAll(async () => {
  notes = await notesHost({ onConfirm });
});
afterAll(async () => {
  await notes?.close();
});

const DELETE_BOTH = `
const before = await tools.notes__read_note({ name: 'a' });
await tools.notes__delete_note({ name: 'a' });
await tools.notes__delete_note({ name: 'b' });
return before;`;

describe('runHostScript', () => {
  it('the typed API of the host tools declares each one with its effects', () => {
    const api = apiDeclarations(notes.host.tools().filter((t) => t.server === 'notes'));
    expect(api).toContain('notes__delete_note(args:');
    expect(api).toContain('Effects: writes (destructive, idempotent), closed world.');
    expect(api).toContain('Effects: read-only, closed world.');
  });

  it('runs the reads of a trusted server without a question', async () => {
    notes.clear();
    const ask = vi.fn(() => true);
    const out = await runHostScript(notes.host, {
      code: `const a = await tools.notes__read_note({ name: 'n' }); return [a, await tools.notes__read_note({ name: 'm' })];`,
      ask,
    });
    expect(out.json).toBe('["no note n","no note m"]');
    expect(ask).not.toHaveBeenCalled();
    expect(started(notes.log(), 'read_note')).toHaveLength(2);
  });

  it('asks once, at the first destructive call, with the plan; allowing runs the rest', async () => {
    notes.clear();
    const questions: ScriptQuestion[] = [];
    const out = await runHostScript(notes.host, {
      code: DELETE_BOTH,
      ask: (question) => {
        questions.push(question);
        return true;
      },
    });
    expect(out.json).toBe('"no note a"');
    expect(questions).toHaveLength(1);
    expect(questions[0]!.plan.next).toMatchObject({
      tool: 'notes__delete_note',
      effect: 'destructive',
      args: { name: 'a' },
    });
    expect(questions[0]!.plan.made.map((c) => [c.tool, c.outcome])).toEqual([['notes__read_note', 'ok']]);
    expect(questions[0]!.text).toContain('Calls made so far (1):');
    expect(started(notes.log(), 'delete_note').map((e) => e.args.name)).toEqual(['a', 'b']);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('denying stops the script at that call; the server never sees it', async () => {
    notes.clear();
    const error = await runHostScript(notes.host, {
      code: `try { await tools.notes__delete_note({ name: 'a' }); } catch { return 'caught'; }`,
      ask: () => false,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptError);
    expect((error as ScriptError).message).toBe(
      'The person denied this script at notes__delete_note; it stopped there.',
    );
    expect(started(notes.log(), 'delete_note')).toEqual([]);
  });

  it('without anyone to ask, a call that needs a person stops the script', async () => {
    const error = await runHostScript(notes.host, { code: `await tools.notes__delete_note({ name: 'a' });` }).catch(
      (e: unknown) => e,
    );
    expect((error as ScriptError).kind).toBe('stopped');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('limits out of range are refused before the script runs', async () => {
    const error = await runHostScript(notes.host, { code: 'return 1;', limits: { cpuMs: 0 } }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('limits.cpuMs must be a whole number from 10 to 600000 (ms); got 0.');
  });

  // Last: it taints the host's own session.
  it('untrusted content that arrives after the person allowed the script is asked about again', async () => {
    notes.clear();
    const questions: ScriptQuestion[] = [];
    const answers = [true, false];
    const error = await runHostScript(notes.host, {
      code: `await tools.notes__delete_note({ name: 'a' });
        const read = await tools.stranger__read_note({ name: 'x' });
        await tools.notes__delete_note({ name: 'b' });
        return read;`,
      ask: (question) => {
        questions.push(question);
        return answers[questions.length - 1] ?? false;
      },
    }).catch((e: unknown) => e);
    expect(questions).toHaveLength(2);
    expect(questions[1]!.text).toContain(
      'the script you allowed has since read untrusted content (the result of stranger__read_note (server stranger: untrusted))',
    );
    expect((error as ScriptError).message).toBe(
      'The person denied this script at notes__delete_note; it stopped there.',
    );
    expect(started(notes.log(), 'delete_note').map((e) => e.args.name)).toEqual(['a']);
  });
});
