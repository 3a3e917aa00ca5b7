/**
 * candor/openai-agents with @openai/agents 0.20 (its ScriptedModel), the real
 * candor host and a stdio server that logs what reaches it.
 */
import { Agent, run } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { toOpenAIAgentsTools } from '../../src/adapters/openai-agents.js';
import { readsOverlapped, reviseTool, started, useNotesHost, writeOverlaps } from '../support/notes-host.js';
import { type ScriptedStep, toolCall } from '../support/scripted-steps.js';

/** The ScriptedModel for scripted steps. */
function scripted(steps: ScriptedStep[]): ScriptedModel {
  return new ScriptedModel(
    steps.map((step) =>
      typeof step === 'string'
        ? [assistantMessage(step)]
        : step.map((c) => functionCall(c.tool, c.args, { callId: c.id })),
    ),
  );
}

/** What the model was shown for a call in its last request. */
function modelSaw(model: ScriptedModel, callId: string): string {
  const input = model.lastCall!.request.input;
  const items = Array.isArray(input) ? (input as Array<Record<string, unknown>>) : [];
  const item = items.find((i) => i.type === 'function_call_result' && i.callId === callId);
  return JSON.stringify(item?.output ?? null);
}

const fixture = useNotesHost();

const { onConfirm } = fixture;
async function start(options: Parameters<typeof fixture.open>[0] = {}) {
  const notes = await fixture.open(options);
  const tools = toOpenAIAgentsTools(notes.host);
  const agentFor = (model: ScriptedModel) => new Agent({ name: 'notes', instructions: 'Keep notes.', model, tools });
  return { host: notes.host, tools, agentFor };
}
const runOptions = { toolNotFoundBehavior: 'return_error_to_model' as const };

describe('candor/openai-agents', () => {
  it('builds function tools under the API names, with candor hints beside them', async () => {
    const { tools } = await start();
    const del = tools.find((t) => t.name === 'notes__delete_note')!;
    expect(del.candor).toMatchObject({ destructiveHint: true, trust: 'trusted' });
    expect(del.strict).toBe(false);
  });

  it('overlaps two reads of one turn at the server, without asking', async () => {
    const { agentFor } = await start();
    const model = scripted([
      [toolCall('r1', 'notes__read_note', { name: 'todo' }), toolCall('r2', 'notes__read_note', { name: 'x' })],
      'ok',
    ]);
    const result = await run(agentFor(model), 'read two notes', runOptions);
    expect(result.finalOutput).toBe('ok');
    expect(readsOverlapped(fixture.notes.log())).toBe(true);
    expect(modelSaw(model, 'r1')).toContain('buy milk');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('runs two writes of one turn one at a time, in order', async () => {
    const { agentFor } = await start({ policy: { rules: [{ decision: 'allow', tools: 'notes__write_note' }] } });
    const model = scripted([
      [
        toolCall('w1', 'notes__write_note', { name: 'a', text: '1' }),
        toolCall('w2', 'notes__write_note', { name: 'b', text: '2' }),
      ],
      'ok',
    ]);
    await run(agentFor(model), 'write two notes', runOptions);
    const log = fixture.notes.log();
    expect(started(log, 'write_note').map((e) => e.args.name)).toEqual(['a', 'b']);
    expect(writeOverlaps(log)).toEqual([]);
  });

  it('interrupts on a destructive call; rejected, it never reaches the server and the model reads why', async () => {
    const { agentFor } = await start();
    const model = scripted([[toolCall('d1', 'notes__delete_note', { name: 'todo' })], 'understood']);
    const agent = agentFor(model);
    const first = await run(agent, 'delete todo', runOptions);
    expect(first.interruptions).toHaveLength(1);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    first.state.reject(first.interruptions[0]!, { message: 'keep my notes' });
    const second = await run(agent, first.state, runOptions);
    expect(second.finalOutput).toBe('understood');
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    expect(modelSaw(model, 'd1')).toMatch(/keep my notes/);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('approved, a destructive call reaches the server exactly once and onConfirm is not called', async () => {
    const { agentFor } = await start();
    const model = scripted([[toolCall('d1', 'notes__delete_note', { name: 'todo' })], 'deleted']);
    const agent = agentFor(model);
    const first = await run(agent, 'delete todo', runOptions);
    first.state.approve(first.interruptions[0]!);
    const second = await run(agent, first.state, runOptions);
    expect(second.finalOutput).toBe('deleted');
    expect(started(fixture.notes.log(), 'delete_note')).toHaveLength(1);
    expect(modelSaw(model, 'd1')).toContain('deleted todo');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("asks about an untrusted server's read-only tool", async () => {
    const { agentFor } = await start();
    const model = scripted([[toolCall('s1', 'stranger__read_note', { name: 'todo' })], 'ok']);
    const result = await run(agentFor(model), 'read', runOptions);
    expect(result.interruptions).toHaveLength(1);
    expect(started(fixture.notes.log(), 'read_note')).toEqual([]);
  });

  it('in plan mode offers only read-only tools, and a call to a hidden tool is an error the model reads', async () => {
    const { tools, agentFor } = await start({ policy: 'plan' });
    expect(tools.every((t) => t.candor.readOnlyHint)).toBe(true);
    const model = scripted([[toolCall('h1', 'notes__delete_note', { name: 'todo' })], 'fine']);
    const result = await run(agentFor(model), 'delete', runOptions);
    expect(result.finalOutput).toBe('fine');
    expect(modelSaw(model, 'h1')).toMatch(/not found/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
  });

  it('refuses with a guardrail, without an interruption, what the host denies, and the model reads why', async () => {
    const { host, agentFor } = await start({ pins: { lock: { lockfileVersion: 1, servers: {} }, onChange: 'block' } });
    host.pins.pinServer('notes');
    await reviseTool(host);
    const model = scripted([[toolCall('b1', 'notes__delete_note', { name: 'todo' })], 'noted']);
    const result = await run(agentFor(model), 'delete', runOptions);
    expect(result.interruptions).toEqual([]);
    expect(result.toolInputGuardrailResults.map((r) => r.output.behavior.type)).toEqual(['rejectContent']);
    expect(result.finalOutput).toBe('noted');
    expect(modelSaw(model, 'b1')).toMatch(/changed since it was pinned/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
  });

  it('asks again when the tool changed after the person was asked', async () => {
    const { host, agentFor } = await start();
    const model = scripted([[toolCall('c1', 'notes__delete_note', { name: 'todo' })], 'ok']);
    const agent = agentFor(model);
    const first = await run(agent, 'delete todo', runOptions);
    await reviseTool(host);
    first.state.approve(first.interruptions[0]!);
    await run(agent, first.state, runOptions);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onConfirm.mock.calls[0]![0].reason).toMatch(/changed since the call was approved/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    expect(modelSaw(model, 'c1')).toMatch(/Denied/);
  });
});
