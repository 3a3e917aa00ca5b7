/**
 * The official SDK v2 serving one echo tool on node:http, in a named configuration
 * (the second argument):
 *
 * - `default`: `createMcpHandler(factory)` as its docs introduce it, mounted with the
 *   SDK's own `toNodeHandler`: 2026-07-28 answers in `responseMode: 'auto'`, 2025
 *   traffic served by its stateless fallback (answers as SSE streams).
 * - `json`: `createMcpHandler(factory, { responseMode: 'json' })`, the SDK's fastest
 *   documented setting for 2026-07-28 exchanges (never streams).
 * - `legacy-json`: 2025 traffic the fastest way the SDK documents: stateless
 *   (`sessionIdGenerator: undefined`, a server and transport per request) with
 *   `enableJsonResponse: true`, on `NodeStreamableHTTPServerTransport`.
 *
 * Arguments: [toolCount] [default|json|legacy-json].
 */
import { createServer, type IncomingMessage } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { announce } from './announce.js';

const toolCount = Number(process.argv[2] ?? 1);
const mode = process.argv[3] ?? 'default';

function build(): McpServer {
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
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

if (mode === 'legacy-json') {
  const http = createServer(async (req, res) => {
    const body = await readBody(req);
    const server = build();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1', () => announce(http));
} else {
  if (mode !== 'default' && mode !== 'json') throw new Error(`sdk-v2.ts: unknown configuration ${mode}`);
  const handler = createMcpHandler(build, mode === 'json' ? { responseMode: 'json' } : {});
  const node = toNodeHandler(handler);
  const http = createServer((req, res) => {
    void node(req, res);
  });
  http.listen(0, '127.0.0.1', () => announce(http));
}
