/**
 * The official SDK v2 `createMcpHandler` (one factory serving the 2026-07-28 era
 * and a stateless 2025 fallback), mounted on node:http with the SDK's own
 * `toNodeHandler` adapter, with one echo tool.
 */
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { announce } from './announce.js';

const toolCount = Number(process.argv[2] ?? 1);

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench-sdk-v2', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echo the text back.',
      inputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  for (let i = 1; i < toolCount; i++) {
    server.registerTool(
      `tool_${i}`,
      { description: `Tool ${i}.`, inputSchema: z.object({ path: z.string(), limit: z.number().optional() }) },
      async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    );
  }
  return server;
});

const node = toNodeHandler(handler);
const http = createServer((req, res) => {
  void node(req, res);
});
http.listen(0, '127.0.0.1', () => announce(http));
