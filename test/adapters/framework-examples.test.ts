/**
 * The framework examples (examples/frameworks/*.ts) are the code the agent frameworks
 * page (docs/host/agent-frameworks.md) shows, and they run: each framework's own mock model asks the memory
 * server (@modelcontextprotocol/server-memory, over stdio) to create an entity,
 * candor asks the person, and the entity lands in the memory file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionCall, assistantMessage as openAIMessage, ScriptedModel } from '@openai/agents/testing';
import { MockLanguageModelV4 } from 'ai/test';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { AIMessage, fakeModel } from 'langchain';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as aiSdk from '../../examples/frameworks/ai-sdk.js';
import * as langchain from '../../examples/frameworks/langchain.js';
import * as mastra from '../../examples/frameworks/mastra.js';
import * as openaiAgents from '../../examples/frameworks/openai-agents.js';
import { answer, type ScriptedStep, toolCall } from '../support/scripted-steps.js';

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'candor-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entity = { entities: [{ name: 'milk', entityType: 'todo', observations: ['buy oat milk'] }] };
const script: ScriptedStep[] = [[toolCall('c1', 'memory__create_entities', entity)], 'Saved.'];

const examples = {
  'ai-sdk': () => {
    const queue = [...script];
    return aiSdk.ask.bind(null, new MockLanguageModelV4({ doGenerate: async () => answer(queue.shift() ?? '') }));
  },
  'openai-agents': () =>
    openaiAgents.ask.bind(
      null,
      new ScriptedModel(
        script.map((step) =>
          typeof step === 'string'
            ? [openAIMessage(step)]
            : step.map((c) => functionCall(c.tool, c.args, { callId: c.id })),
        ),
      ),
    ),
  langchain: () => {
    const model = fakeModel();
    for (const step of script) {
      if (typeof step === 'string') model.respond(new AIMessage(step));
      else model.respondWithTools(step.map((c) => ({ id: c.id, name: c.tool, args: c.args })));
    }
    return langchain.ask.bind(null, model);
  },
  mastra: () => {
    const queue = [...script];
    return mastra.ask.bind(null, new MockLanguageModelV3({ doGenerate: async () => answer(queue.shift() ?? '') }));
  },
} as const;

describe.each(Object.keys(examples) as Array<keyof typeof examples>)('the %s example', (name) => {
  it('is the code the agent frameworks page shows', () => {
    const file = readFileSync(join(root, 'examples/frameworks', `${name}.ts`), 'utf8')
      .replaceAll(/'\.\.\/\.\.\/src\/adapters\/([a-z-]+)\.js'/g, "'candor/$1'")
      .replaceAll("'../../src/host/index.js'", "'candor/host'");
    const readme = readFileSync(join(root, 'docs', 'host', 'agent-frameworks.md'), 'utf8');
    const block = new RegExp(`<!-- example: examples/frameworks/${name}.ts -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(
      readme,
    );
    expect(block, `docs/host/agent-frameworks.md has the ${name} example`).not.toBeNull();
    expect(block![1]).toBe(file);
  });

  it('asks the person once, then the memory server stores the entity', async () => {
    const memoryFile = join(dir, `${name}.jsonl`);
    const approve = vi.fn(async (_tool: string, _detail: unknown) => true);
    const text = await examples[name]()('Remember to buy oat milk.', approve, memoryFile);
    expect(text).toBe('Saved.');
    expect(approve).toHaveBeenCalledTimes(1);
    expect(approve.mock.calls[0]![0]).toBe('memory__create_entities');
    expect(readFileSync(memoryFile, 'utf8')).toContain('buy oat milk');
  });
});
