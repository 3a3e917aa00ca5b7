import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, type HITLRequest } from 'langchain';
import { toLangChainTools } from '../../src/adapters/langchain.js';
import { createHost } from '../../src/host/index.js';

/** One request to a LangChain agent over the memory server; `approve` is the person, asked only when candor asks. */
export async function ask(
  model: BaseChatModel,
  prompt: string,
  approve: (tool: string, reason: string) => Promise<boolean>,
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
    const { tools, middleware } = toLangChainTools(host);
    const agent = createAgent({ model, tools, middleware: [middleware], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'example' } };
    let state = await agent.invoke({ messages: [{ role: 'user', content: prompt }] }, config);
    for (;;) {
      const request = state.__interrupt__?.[0]?.value as HITLRequest | undefined;
      if (!request) return String(state.messages.at(-1)?.content ?? '');
      const decisions = [];
      for (const action of request.actionRequests) {
        const approved = await approve(action.name, action.description ?? '');
        decisions.push(approved ? { type: 'approve' as const } : { type: 'reject' as const });
      }
      state = await agent.invoke(new Command({ resume: { decisions } }), config);
    }
  } finally {
    await host.close();
  }
}
