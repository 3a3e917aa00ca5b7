/**
 * candor/langchain with LangChain.js 1.x (createAgent, its human-in-the-loop
 * middleware and the fakeModel test model), the real candor host and a stdio
 * server that logs what reaches it.
 */
import { Command, MemorySaver } from '@langchain/langgraph';
import { AIMessage, type BaseMessage, createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { toLangChainTools } from '../../src/adapters/langchain.js';
import { readsOverlapped, reviseTool, started, useNotesHost, writeOverlaps } from '../support/notes-host.js';
import { type ScriptedStep, toolCall } from '../support/scripted-steps.js';

/** A fakeModel answering the scripted steps in turn. */
function scripted(steps: ScriptedStep[]) {
  const model = fakeModel();
  for (const step of steps) {
    if (typeof step === 'string') model.respond(new AIMessage(step));
    else model.respondWithTools(step.map((c) => ({ id: c.id, name: c.tool, args: c.args })));
  }
  return model;
}

/** What the model was shown for a call in its last request. */
function modelSaw(model: ReturnType<typeof fakeModel>, callId: string): string {
  const messages = model.calls.at(-1)!.messages as BaseMessage[];
  const message = messages.find((m) => (m as { tool_call_id?: string }).tool_call_id === callId);
  return JSON.stringify(message?.content ?? null);
}

const fixture = useNotesHost();

const { onConfirm } = fixture;
let thread = 0;
async function start(options: Parameters<typeof fixture.open>[0] = {}) {
  const notes = await fixture.open(options);
  const { tools, middleware } = toLangChainTools(notes.host);
  const config = { configurable: { thread_id: `t${++thread}` } };
  const agentFor = (model: ReturnType<typeof fakeModel>) =>
    createAgent({ model, tools, middleware: [middleware], checkpointer: new MemorySaver() });
  return { host: notes.host, tools, agentFor, config };
}
const ask = (text: string) => ({ messages: [{ role: 'user', content: text }] });
const lastText = (result: { messages: BaseMessage[] }) => String(result.messages.at(-1)?.content);
const interrupts = (result: object) => (result as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__ ?? [];

describe('candor/langchain', () => {
  it('builds LangChain tools under the API names, with candor hints in metadata', async () => {
    const { tools } = await start();
    const del = tools.find((t) => t.name === 'notes__delete_note')!;
    expect(del.metadata.candor).toMatchObject({ destructiveHint: true, trust: 'trusted' });
  });

  it('overlaps two reads of one step at the server, without asking', async () => {
    const { agentFor, config } = await start();
    const model = scripted([
      [toolCall('r1', 'notes__read_note', { name: 'todo' }), toolCall('r2', 'notes__read_note', { name: 'x' })],
      'ok',
    ]);
    const result = await agentFor(model).invoke(ask('read two notes'), config);
    expect(lastText(result)).toBe('ok');
    expect(readsOverlapped(fixture.notes.log())).toBe(true);
    expect(modelSaw(model, 'r1')).toContain('buy milk');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('runs two writes of one step one at a time, in order', async () => {
    const { agentFor, config } = await start({
      policy: { rules: [{ decision: 'allow', tools: 'notes__write_note' }] },
    });
    const model = scripted([
      [
        toolCall('w1', 'notes__write_note', { name: 'a', text: '1' }),
        toolCall('w2', 'notes__write_note', { name: 'b', text: '2' }),
      ],
      'ok',
    ]);
    await agentFor(model).invoke(ask('write two notes'), config);
    const log = fixture.notes.log();
    expect(started(log, 'write_note').map((e) => e.args.name)).toEqual(['a', 'b']);
    expect(writeOverlaps(log)).toEqual([]);
  });

  it('interrupts on a destructive call with candor’s reason; rejected, it never reaches the server and the model reads why', async () => {
    const { agentFor, config } = await start();
    const model = scripted([[toolCall('d1', 'notes__delete_note', { name: 'todo' })], 'understood']);
    const agent = agentFor(model);
    const first = await agent.invoke(ask('delete todo'), config);
    const request = interrupts(first)[0]?.value as { actionRequests: Array<{ name: string; description?: string }> };
    expect(request.actionRequests[0]).toMatchObject({ name: 'notes__delete_note' });
    expect(request.actionRequests[0]!.description).toMatch(/destructive/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    const second = await agent.invoke(
      new Command({ resume: { decisions: [{ type: 'reject', message: 'keep my notes' }] } }),
      config,
    );
    expect(lastText(second)).toBe('understood');
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    expect(modelSaw(model, 'd1')).toMatch(/keep my notes/);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('approved, a destructive call reaches the server exactly once and onConfirm is not called', async () => {
    const { agentFor, config } = await start();
    const model = scripted([[toolCall('d1', 'notes__delete_note', { name: 'todo' })], 'deleted']);
    const agent = agentFor(model);
    await agent.invoke(ask('delete todo'), config);
    const second = await agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);
    expect(lastText(second)).toBe('deleted');
    expect(started(fixture.notes.log(), 'delete_note')).toHaveLength(1);
    expect(modelSaw(model, 'd1')).toContain('deleted todo');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("asks about an untrusted server's read-only tool", async () => {
    const { agentFor, config } = await start();
    const model = scripted([[toolCall('s1', 'stranger__read_note', { name: 'todo' })], 'ok']);
    const result = await agentFor(model).invoke(ask('read'), config);
    expect(interrupts(result)).toHaveLength(1);
    expect(started(fixture.notes.log(), 'read_note')).toEqual([]);
  });

  it('in plan mode offers only read-only tools, and a call to a hidden tool is an error the model reads', async () => {
    const { tools, agentFor, config } = await start({ policy: 'plan' });
    expect(tools.every((t) => t.metadata.candor.readOnlyHint)).toBe(true);
    const model = scripted([[toolCall('h1', 'notes__delete_note', { name: 'todo' })], 'fine']);
    const result = await agentFor(model).invoke(ask('delete'), config);
    expect(lastText(result)).toBe('fine');
    expect(modelSaw(model, 'h1')).toMatch(/not found|not a valid tool/i);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
  });

  it('denies without an interrupt what the host denies, and the model reads why', async () => {
    const { host, agentFor, config } = await start({
      pins: { lock: { lockfileVersion: 1, servers: {} }, onChange: 'block' },
    });
    host.pins.pinServer('notes');
    await reviseTool(host);
    const model = scripted([[toolCall('b1', 'notes__delete_note', { name: 'todo' })], 'noted']);
    const result = await agentFor(model).invoke(ask('delete'), config);
    expect(interrupts(result)).toEqual([]);
    expect(lastText(result)).toBe('noted');
    expect(modelSaw(model, 'b1')).toMatch(/changed since it was pinned/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
  });

  it('asks again when the tool changed after the person was asked', async () => {
    const { host, agentFor, config } = await start();
    const model = scripted([[toolCall('c1', 'notes__delete_note', { name: 'todo' })], 'ok']);
    const agent = agentFor(model);
    await agent.invoke(ask('delete todo'), config);
    await reviseTool(host);
    await agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onConfirm.mock.calls[0]![0].reason).toMatch(/changed since the call was approved/);
    expect(started(fixture.notes.log(), 'delete_note')).toEqual([]);
    expect(modelSaw(model, 'c1')).toMatch(/Denied/);
  });
});
