/**
 * candor/mastra with @mastra/core (an Agent in a Mastra with in-memory storage,
 * driven by the AI SDK's MockLanguageModelV3), the real candor host and a stdio
 * server that logs what reaches it.
 */
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { describe, expect, it } from 'vitest';
import { toMastraTools } from '../../src/adapters/mastra.js';
import { readsOverlapped, reviseTool, started, useNotesHost, writeOverlaps } from '../support/notes-host.js';
import { answer, modelSaw, type ScriptedStep, toolCall } from '../support/scripted-steps.js';

function scripted(steps: ScriptedStep[]) {
  const queue = [...steps];
  return new MockLanguageModelV3({ doGenerate: async () => answer(queue.shift() ?? 'out of script') });
}

const fixture = useNotesHost();

const { onConfirm } = fixture;
async function start(options: Parameters<typeof fixture.open>[0] = {}) {
  const notes = await fixture.open(options);
  const tools = toMastraTools(notes.host);
  const agentFor = (model: MockLanguageModelV3) => {
    const agent = new Agent({ id: 'notes', name: 'notes', instructions: 'Keep notes.', model, tools });
    return new Mastra({ agents: { notes: agent }, storage: new InMemoryStore(), logger: false }).getAgent('notes');
  };
  return { host: notes.host, tools, agentFor };
}
// Mastra runs a step's calls one at a time while any registered tool may ask, unless told to look at the calls made.
const generateOptions = { toolCallConcurrency: { limit: 8, strategy: 'called' as const } };
const pendingCall = (output: { suspendPayload?: unknown }) =>
  (output.suspendPayload as { toolCallId: string }).toolCallId;

describe('candor/mastra', () => {
  it('builds Mastra tools under the API names, with candor hints as MCP annotations', async () => {
    const { tools } = await start();
    expect(tools.notes__delete_note!.candor).toMatchObject({ destructiveHint: true, trust: 'trusted' });
    expect(tools.notes__delete_note!.mcp?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });

  it('overlaps two reads of one step at the server, without asking', async () => {
    const { agentFor } = await start();
    const model = scripted([
      [toolCall('r1', 'notes__read_note', { name: 'todo' }), toolCall('r2', 'notes__read_note', { name: 'x' })],
      'ok',
    ]);
    const output = await agentFor(model).generate('read two notes', generateOptions);
    expect(output.text).toBe('ok');
    expect(readsOverlapped(fixture.notes.log())).toBe(true);
    expect(modelSaw(model, 'r1')).toContain('buy milk');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('runs two writes of one step one at a time, in order', async () => {
    const { agentFor } = await start({ policy: { rules: [{ decision: 'allow', tools: 'notes__write_note' }] } });
    const model = scripted([
      [
        toolCall('w1', 'notes__write_note', { name: 'a', text: '1' }),
        toolCall('w2', 'notes__write_note', { name: 'b', text: '2' }),
      ],
      'ok',
    ]);
    await agentFor(model).generate('write two notes', generateOptions);
    const log = fixture.notes.log();
    expect(started(log, 'write_note').map((e) => e.args.name)).toEqual(['a', 'b']);
    expect(writeOverlaps(log)).toEqual([]);
  });

  it('suspends on a destructive call; declined, it never reaches the server and the model reads why', async () => {
    const { agentFor } = await start();
    const model = scripted([[toolCall('d1', 'notes__delete_note', { name: 'todo' })], 'understood']);
    const agent = agentFor(model);
    const first = await agent.generate('delete todo', generateOptions);
    expect(first.finishReason).toBe('suspended');
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    const second = await agent.declineToolCallGenerate({
      runId: first.runId!,
      toolCallId: pendingCall(first),
      reason: 'keep my notes',
    });
    expect(second.text).toBe('understood');
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    expect(modelSaw(model, 'd1')).toMatch(/keep my notes|declined|denied/i);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('approved, a destructive call reaches the server exactly once and onConfirm is not called', async () => {
    const { agentFor } = await start();
    const model = scripted([[toolCall('d1', 'notes__delete_note', { name: 'todo' })], 'deleted']);
    const agent = agentFor(model);
    const first = await agent.generate('delete todo', generateOptions);
    const second = await agent.approveToolCallGenerate({ runId: first.runId!, toolCallId: pendingCall(first) });
    expect(second.text).toBe('deleted');
    expect(started(fixture.notes.log(), 'delete_note')).toHaveLength(1);
    expect(modelSaw(model, 'd1')).toContain('deleted todo');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("asks about an untrusted server's read-only tool", async () => {
    const { agentFor } = await start();
    const model = scripted([[toolCall('s1', 'stranger__read_note', { name: 'todo' })], 'ok']);
    const output = await agentFor(model).generate('read', generateOptions);
    expect(output.finishReason).toBe('suspended');
    expect(started(fixture.notes.log(), 'read_note')).toEqual([]);
  });

  it('in plan mode offers only read-only tools, and a call to a hidden tool is an error the model reads', async () => {
    const { tools, agentFor } = await start({ policy: 'plan' });
    expect(Object.values(tools).every((t) => t.candor.readOnlyHint)).toBe(true);
    const model = scripted([[toolCall('h1', 'notes__delete_note', { name: 'todo' })], 'fine']);
    const output = await agentFor(model).generate('delete', generateOptions);
    expect(output.text).toBe('fine');
    expect(modelSaw(model, 'h1')).toMatch(/not found|unavailable|no such tool/i);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
  });

  it('denies without suspending what the host denies, and the model reads why', async () => {
    const { host, agentFor } = await start({ pins: { lock: { lockfileVersion: 1, servers: {} }, onChange: 'block' } });
    host.pins.pinServer('notes');
    await reviseTool(host);
    const model = scripted([[toolCall('b1', 'notes__delete_note', { name: 'todo' })], 'noted']);
    const output = await agentFor(model).generate('delete', generateOptions);
    expect(output.finishReason).not.toBe('suspended');
    expect(output.text).toBe('noted');
    expect(modelSaw(model, 'b1')).toMatch(/changed since it was pinned/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
  });

  it('asks again when the tool changed after the person was asked', async () => {
    const { host, agentFor } = await start();
    const model = scripted([[toolCall('c1', 'notes__delete_note', { name: 'todo' })], 'ok']);
    const agent = agentFor(model);
    const first = await agent.generate('delete todo', generateOptions);
    await reviseTool(host);
    await agent.approveToolCallGenerate({ runId: first.runId!, toolCallId: pendingCall(first) });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onConfirm.mock.calls[0]![0].reason).toMatch(/changed since the call was approved/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    expect(modelSaw(model, 'c1')).toMatch(/Denied/);
  });
});
