import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { toMastraTools } from '../../src/adapters/mastra.js';
import { createHost } from '../../src/host/index.js';

/** One request to a Mastra agent over the memory server; `approve` is the person, asked only when candor asks. */
export async function ask(
  model: MastraModelConfig,
  prompt: string,
  approve: (tool: string, args: unknown) => Promise<boolean>,
  memoryFile: string,
): Promise<string> {
  const host = await createHost({
    servers: {
      memory: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-memory'],
        env: { MEMORY_FILE_PATH: memoryFile },
        trust: 'trusted',
      },
    },
  });
  try {
    const agent = new Agent({
      id: 'memory',
      name: 'memory',
      instructions: 'Keep the user’s notes.',
      model,
      tools: toMastraTools(host),
    });
    // Approvals resume a suspended run, which Mastra keeps in its storage.
    const mastra = new Mastra({ agents: { memory: agent }, storage: new InMemoryStore(), logger: false });
    const memory = mastra.getAgent('memory');
    // Reads of one step run together; a step that calls a tool needing approval runs its calls one by one.
    const options = { toolCallConcurrency: { limit: 8, strategy: 'called' as const } };
    let output = await memory.generate(prompt, options);
    while (output.finishReason === 'suspended') {
      const pending = output.suspendPayload as { toolCallId: string; toolName: string; args: unknown };
      const answer = { runId: output.runId!, toolCallId: pending.toolCallId, ...options };
      output = (await approve(pending.toolName, pending.args))
        ? await memory.approveToolCallGenerate(answer)
        : await memory.declineToolCallGenerate(answer);
    }
    return output.text;
  } finally {
    await host.close();
  }
}
