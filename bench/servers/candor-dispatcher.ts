/**
 * The layer between the bare echo and candor (issue 24): bare node:http, as in
 * bare-node.ts, handing each parsed message to candor's dispatcher directly
 * (one 2025 session's peer, no candor transport). Its CPU per request against
 * the bare echo's is the dispatcher's share; against candor's full endpoint,
 * the transport's. Run `npm run build` first.
 */
import { createServer as createHttpServer } from 'node:http';
import { z } from 'zod';
import { createServer, defineTool, silentLogger } from '../../dist/src/index.js';
import { announce } from './announce.js';

const server = createServer({
  name: 'bench-candor-dispatcher',
  version: '1.0.0',
  logger: silentLogger,
  tools: [
    defineTool({
      name: 'echo',
      description: 'Echo the text back.',
      effect: 'read',
      world: 'closed',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => text,
    }),
  ],
});
const { dispatcher } = server;
const channel = { open: false, send() {} };
const peer = dispatcher.createPeer({ channel });
await dispatcher.handle(
  {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
  },
  { peer, channel },
);
await dispatcher.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, { peer, channel });

const http = createHttpServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const answer = await dispatcher.handle(JSON.parse(Buffer.concat(chunks).toString('utf8')), { peer, channel });
    const body = JSON.stringify(answer);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
http.listen(0, '127.0.0.1', () => announce(http));
