/**
 * candor serving one echo tool (plus `tool_1…` fillers when asked) over
 * Streamable HTTP on node:http: the same endpoint answers both protocol eras.
 * Arguments: [toolCount] [stateful|stateless|dispatcher] [port, default any free one]. Run `npm run build` first.
 */
import { createServer as createHttpServer } from 'node:http';
import { z } from 'zod';
// The compiled package, as users run it (tsx would wrap candor's functions with
// naming helpers the SDKs, precompiled in node_modules, do not pay for).
import { createHttpHandler, createServer, defineTool, silentLogger, type ToolLike } from '../../dist/src/index.js';
import { announce } from './announce.js';

const toolCount = Number(process.argv[2] ?? 1);
const sessions = process.argv[3] === 'stateless' ? 'stateless' : 'stateful';

/**
 * `dispatcher`: the layer between the bare echo and candor. Bare
 * node:http, as in bare-node.ts, hands each parsed message to candor's
 * dispatcher directly (one 2025 session's peer, no candor transport); its CPU
 * per request against the bare echo's is the dispatcher's share, against the
 * full endpoint's the transport's.
 */
async function dispatcherOnly() {
  const { dispatcher } = server;
  const channel = { open: false, send() {} };
  const peer = dispatcher.createPeer({ channel });
  const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } };
  await dispatcher.handle({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init }, { peer, channel });
  await dispatcher.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, { peer, channel });
  return createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const answer = await dispatcher.handle(JSON.parse(Buffer.concat(chunks).toString('utf8')), { peer, channel });
      const body = JSON.stringify(answer);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
}

const tools: ToolLike[] = [
  defineTool({
    name: 'echo',
    description: 'Echo the text back.',
    effect: 'read',
    world: 'closed',
    input: z.object({ text: z.string() }),
    handler: ({ text }) => text,
  }),
];
for (let i = 1; i < toolCount; i++) {
  tools.push(
    defineTool({
      name: `tool_${i}`,
      description: `Tool ${i}.`,
      effect: 'read',
      world: 'closed',
      input: z.object({ path: z.string(), limit: z.number().optional() }),
      handler: () => 'ok',
    }),
  );
}

const server = createServer({ name: 'bench-candor', version: '1.0.0', tools, logger: silentLogger });
const http =
  process.argv[3] === 'dispatcher'
    ? await dispatcherOnly()
    : createHttpServer(
        createHttpHandler({ dispatcher: server.dispatcher, sessions, logger: silentLogger }).nodeHandler,
      );
http.keepAliveTimeout = 60_000;
http.listen(Number(process.argv[4] ?? 0), '127.0.0.1', () => announce(http));
