/**
 * candor serving one echo tool (plus `tool_1…` fillers when asked) over
 * Streamable HTTP on node:http: the same endpoint answers both protocol eras.
 * Arguments: [toolCount] [sessions: stateful|stateless]. Run `npm run build` first.
 */
import { createServer as createHttpServer } from 'node:http';
import { z } from 'zod';
// The compiled package, as users run it (tsx would wrap candor's functions with
// naming helpers the SDKs, precompiled in node_modules, do not pay for).
import { createHttpHandler, createServer, defineTool, silentLogger, type ToolLike } from '../../dist/src/index.js';
import { announce } from './announce.js';

const toolCount = Number(process.argv[2] ?? 1);
const sessions = process.argv[3] === 'stateless' ? 'stateless' : 'stateful';

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
const handler = createHttpHandler({ dispatcher: server.dispatcher, sessions, logger: silentLogger });
const http = createHttpServer((req, res) => {
  void handler.nodeHandler(req, res);
});
http.keepAliveTimeout = 60_000;
http.listen(0, '127.0.0.1', () => announce(http));
