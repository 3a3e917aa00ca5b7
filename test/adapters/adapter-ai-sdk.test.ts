/**
 * candor/ai-sdk with ai 7 (MockLanguageModelV4) and ai 6 (MockLanguageModelV3),
 * the real candor host and a stdio server that logs what reaches it.
 */
import * as ai7 from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as ai6 from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { describe, expect, it } from 'vitest';
import { toAiSdkTools } from '../../src/adapters/ai-sdk.js';
import { readsOverlapped, reviseTool, started, useNotesHost, writeOverlaps } from '../support/notes-host.js';
import { answer, modelSaw, type ScriptedStep, toolCall } from '../support/scripted-steps.js';

/** The two AI SDK versions, behind one small surface. */
const versions = [
  {
    name: 'ai 7',
    model: (steps: ScriptedStep[]) => {
      const queue = [...steps];
      return new MockLanguageModelV4({ doGenerate: async () => answer(queue.shift() ?? 'out of script') });
    },
    generate: (args: Record<string, unknown>) =>
      ai7.generateText({ ...args, stopWhen: ai7.isStepCount(5) } as Parameters<typeof ai7.generateText>[0]),
    withApproval: true,
  },
  {
    name: 'ai 6',
    model: (steps: ScriptedStep[]) => {
      const queue = [...steps];
      return new MockLanguageModelV3({ doGenerate: async () => answer(queue.shift() ?? 'out of script') });
    },
    generate: (args: Record<string, unknown>) =>
      ai6.generateText({ ...args, stopWhen: ai6.stepCountIs(5) } as Parameters<typeof ai6.generateText>[0]),
    withApproval: false,
  },
] as const;

const fixture = useNotesHost();

describe.each(versions)('candor/ai-sdk with $name', (version) => {
  const { onConfirm } = fixture;
  const start = async (options: Parameters<typeof fixture.open>[0] = {}) => {
    const notes = await fixture.open(options);
    const { tools, toolApproval } = toAiSdkTools(notes.host);
    const run = (model: unknown, more: Record<string, unknown>) =>
      version.generate({ model, tools, ...(version.withApproval ? { toolApproval } : {}), ...more });
    return { host: notes.host, tools, run };
  };

  it('offers the host tools under their API names, with candor hints in metadata', async () => {
    const { tools } = await start();
    expect(Object.keys(tools)).toContain('notes__read_note');
    expect(tools.notes__delete_note!.metadata.candor).toMatchObject({
      server: 'notes',
      readOnlyHint: false,
      destructiveHint: true,
      trust: 'trusted',
    });
  });

  it('overlaps two reads of one step at the server, without asking', async () => {
    const { run } = await start();
    const model = version.model([
      [toolCall('r1', 'notes__read_note', { name: 'todo' }), toolCall('r2', 'notes__read_note', { name: 'x' })],
      'ok',
    ]);
    const result = await run(model, { prompt: 'read two notes' });
    expect(result.text).toBe('ok');
    expect(readsOverlapped(fixture.notes.log())).toBe(true);
    expect(modelSaw(model, 'r1')).toContain('buy milk');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('runs two writes of one step one at a time, in order', async () => {
    const { run } = await start({ policy: { rules: [{ decision: 'allow', tools: 'notes__write_note' }] } });
    const model = version.model([
      [
        toolCall('w1', 'notes__write_note', { name: 'a', text: '1' }),
        toolCall('w2', 'notes__write_note', { name: 'b', text: '2' }),
      ],
      'ok',
    ]);
    await run(model, { prompt: 'write two notes' });
    const log = fixture.notes.log();
    expect(started(log, 'write_note').map((e) => e.args.name)).toEqual(['a', 'b']);
    expect(writeOverlaps(log)).toEqual([]);
  });

  it('pauses a destructive call; denied, it never reaches the server and the model reads why', async () => {
    const { run } = await start();
    const model = version.model([[toolCall('d1', 'notes__delete_note', { name: 'todo' })], 'understood']);
    const first = await run(model, { prompt: 'delete todo' });
    const request = first.content.find((p) => p.type === 'tool-approval-request') as
      | { approvalId: string; reason?: string }
      | undefined;
    expect(request).toBeDefined();
    if (version.withApproval) expect(request!.reason).toMatch(/destructive/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    await run(model, {
      messages: [
        { role: 'user', content: 'delete todo' },
        ...first.response.messages,
        {
          role: 'tool',
          content: [
            {
              type: 'tool-approval-response',
              approvalId: request!.approvalId,
              approved: false,
              reason: 'keep my notes',
            },
          ],
        },
      ],
    });
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    expect(modelSaw(model, 'd1')).toMatch(/keep my notes|denied/i);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('approved, a destructive call reaches the server exactly once and onConfirm is not called', async () => {
    const { run } = await start();
    const model = version.model([[toolCall('d1', 'notes__delete_note', { name: 'todo' })], 'deleted']);
    const first = await run(model, { prompt: 'delete todo' });
    const request = first.content.find((p) => p.type === 'tool-approval-request') as { approvalId: string };
    const second = await run(model, {
      messages: [
        { role: 'user', content: 'delete todo' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
      ],
    });
    expect(second.text).toBe('deleted');
    expect(started(fixture.notes.log(), 'delete_note')).toHaveLength(1);
    expect(modelSaw(model, 'd1')).toContain('deleted todo');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("asks about an untrusted server's read-only tool", async () => {
    const { run } = await start();
    const model = version.model([[toolCall('s1', 'stranger__read_note', { name: 'todo' })], 'ok']);
    const result = await run(model, { prompt: 'read' });
    const request = result.content.find((p) => p.type === 'tool-approval-request') as { reason?: string } | undefined;
    expect(request).toBeDefined();
    if (version.withApproval) expect(request!.reason).toMatch(/not trusted/);
    expect(started(fixture.notes.log(), 'read_note')).toEqual([]);
  });

  it('in plan mode offers only read-only tools, and a call to a hidden tool is an error the model reads', async () => {
    const { tools, run } = await start({ policy: 'plan' });
    expect(Object.values(tools).every((t) => t.metadata.candor.readOnlyHint)).toBe(true);
    expect(Object.keys(tools)).not.toContain('notes__delete_note');
    const model = version.model([[toolCall('h1', 'notes__delete_note', { name: 'todo' })], 'fine']);
    const result = await run(model, { prompt: 'delete' });
    expect(result.text).toBe('fine');
    expect(modelSaw(model, 'h1')).toMatch(/unavailable tool/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
  });

  it('denies without a pause what the host denies (a changed tool under pins that block), and the model reads why', async () => {
    const { host, run } = await start({ pins: { lock: { lockfileVersion: 1, servers: {} }, onChange: 'block' } });
    host.pins.pinServer('notes');
    await reviseTool(host);
    const model = version.model([[toolCall('b1', 'notes__delete_note', { name: 'todo' })], 'noted']);
    const result = await run(model, { prompt: 'delete' });
    // ai 7 records the host's denial as an automatic approval request and its denied response: no pause.
    expect(
      result.content.some((p) => p.type === 'tool-approval-request' && !(p as { isAutomatic?: boolean }).isAutomatic),
    ).toBe(false);
    expect(result.text).toBe('noted');
    expect(modelSaw(model, 'b1')).toMatch(/changed since it was pinned/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
  });

  it('asks again when the tool changed after the person was asked', async () => {
    const { host, run } = await start();
    const model = version.model([[toolCall('c1', 'notes__delete_note', { name: 'todo' })], 'ok']);
    const first = await run(model, { prompt: 'delete todo' });
    const request = first.content.find((p) => p.type === 'tool-approval-request') as { approvalId: string };
    await reviseTool(host);
    await run(model, {
      messages: [
        { role: 'user', content: 'delete todo' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
      ],
    });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onConfirm.mock.calls[0]![0].reason).toMatch(/changed since the call was approved/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    expect(modelSaw(model, 'c1')).toMatch(/denied/);
  });
});
