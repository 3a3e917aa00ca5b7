import { generateText, isStepCount, type LanguageModel, type ModelMessage, type ToolApprovalResponse } from 'ai';
import { toAiSdkTools } from '../../src/adapters/ai-sdk.js';
import { createHost } from '../../src/host/index.js';

/** One request to an AI SDK agent over the memory server; `approve` is the person, asked only when candor asks. */
export async function ask(
  model: LanguageModel,
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
    const { tools, toolApproval } = toAiSdkTools(host);
    const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
    for (;;) {
      const result = await generateText({ model, tools, toolApproval, messages, stopWhen: isStepCount(10) });
      messages.push(...result.response.messages);
      const requests = result.content.filter((part) => part.type === 'tool-approval-request' && !part.isAutomatic);
      if (requests.length === 0) return result.text;
      const answers: ToolApprovalResponse[] = [];
      for (const request of requests) {
        if (request.type !== 'tool-approval-request') continue;
        const approved = await approve(request.toolCall.toolName, request.reason ?? '');
        answers.push({ type: 'tool-approval-response', approvalId: request.approvalId, approved });
      }
      messages.push({ role: 'tool', content: answers });
    }
  } finally {
    await host.close();
  }
}
