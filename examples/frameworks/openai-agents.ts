import { Agent, type Model, run } from '@openai/agents';
import { toOpenAIAgentsTools } from '../../src/adapters/openai-agents.js';
import { createHost } from '../../src/host/index.js';

/** One request to an OpenAI Agents SDK agent over the memory server; `approve` is the person, asked only when candor asks. */
export async function ask(
  model: Model | string,
  prompt: string,
  approve: (tool: string, args: string) => Promise<boolean>,
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
      name: 'memory',
      instructions: 'Keep the user’s notes.',
      model,
      tools: toOpenAIAgentsTools(host),
    });
    // A call to a tool the host does not offer (plan mode) comes back to the model as an error.
    const options = { toolNotFoundBehavior: 'return_error_to_model' as const };
    let result = await run(agent, prompt, options);
    while (result.interruptions.length > 0) {
      for (const item of result.interruptions) {
        if (await approve(item.name ?? '', item.arguments ?? '')) result.state.approve(item);
        else result.state.reject(item);
      }
      result = await run(agent, result.state, options);
    }
    return String(result.finalOutput);
  } finally {
    await host.close();
  }
}
