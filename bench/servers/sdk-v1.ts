/**
 * The official SDK v1 (`@modelcontextprotocol/sdk` McpServer) with one echo tool,
 * served over Streamable HTTP. `stateful`: one session, one transport (the SDK's
 * fast path). `stateless`: a server and transport per request, as the SDK's
 * stateless examples do. Answers are JSON (`enableJsonResponse: true`, the SDK's
 * fastest documented setting) unless the third argument is `sse`, the SDK's default.
 *
 * Arguments: [stateful|stateless] [toolCount] [json|sse].
 */
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { announce } from './announce.js';

const mode = process.argv[2] === 'stateless' ? 'stateless' : 'stateful';
const toolCount = Number(process.argv[3] ?? 1);
const enableJsonResponse = process.argv[4] !== 'sse';

function build(): McpServer {
  const server = new McpServer({ name: 'bench-sdk-v1', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text back.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  for (let i = 1; i < toolCount; i++) {
    server.registerTool(
      `tool_${i}`,
      { description: `Tool ${i}.`, inputSchema: { path: z.string(), limit: z.number().optional() } },
      async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    );
  }
  return server;
}

function readBody(req: import('node:http').IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

if (mode === 'stateless') {
  const http = createServer(async (req, res) => {
    const body = await readBody(req);
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1', () => announce(http));
} else {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    const body = await readBody(req);
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        enableJsonResponse,
        onsessioninitialized: (id) => {
          transports.set(id, transport!);
        },
      });
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1', () => announce(http));
}
