/**
 * candor serving one echo tool over Streamable HTTP as an OAuth resource
 * server: tokens verified against the JWKS given in BENCH_AUTH_JWKS (JSON),
 * issued by BENCH_AUTH_ISSUER for BENCH_AUTH_RESOURCE. Run `npm run build` first.
 */
import { createServer as createHttpServer } from 'node:http';
import { z } from 'zod';
import { createServer, defineTool, silentLogger } from '../../dist/src/index.js';
import { announce } from './announce.js';

const server = createServer({
  name: 'bench-candor-auth',
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
  auth: {
    issuer: process.env.BENCH_AUTH_ISSUER!,
    resource: process.env.BENCH_AUTH_RESOURCE!,
    jwks: JSON.parse(process.env.BENCH_AUTH_JWKS!),
  },
});
const handler = server.httpHandler({ sessions: 'stateful', logger: silentLogger });
const http = createHttpServer((req, res) => {
  void handler.nodeHandler(req, res);
});
http.keepAliveTimeout = 60_000;
http.listen(0, '127.0.0.1', () => announce(http));
