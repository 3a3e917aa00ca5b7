/**
 * candor serving N tools over Streamable HTTP, for the memory benchmark
 * (bench/registry.ts). Plain JavaScript on plain node (a TypeScript loader
 * would add its own memory). Arguments: <count> <shared|distinct>: one zod input
 * schema for every tool, or one built per tool. Run `npm run build` first.
 */
import { createServer as createHttpServer } from 'node:http';
import { z } from 'zod';
import { createHttpHandler, createServer, defineTool, silentLogger } from '../../dist/src/index.js';

const count = Number(process.argv[2] ?? 10_000);
const shared = process.argv[3] === 'shared' ? z.object({ path: z.string(), limit: z.number().optional() }) : undefined;
const tools = [];
for (let i = 0; i < count; i++) {
  tools.push(
    defineTool({
      name: `tool_${i}`,
      description: `Tool ${i}.`,
      effect: 'read',
      world: 'closed',
      input: shared ?? z.object({ path: z.string(), limit: z.number().optional() }),
      handler: () => 'ok',
    }),
  );
}
const server = createServer({ name: 'bench-many', version: '1.0.0', tools, logger: silentLogger });
const handler = createHttpHandler({ dispatcher: server.dispatcher, sessions: 'stateless', logger: silentLogger });
const http = createHttpServer((req, res) => void handler.nodeHandler(req, res));
http.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${http.address().port}\n`));
