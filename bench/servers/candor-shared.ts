/**
 * candor with shared state for bench/redis.ts: `echo`, a
 * rate-limited `limited` (a budget too large to run out, so every call counts
 * in the store) and `steps` (three progress notifications: an SSE stream whose
 * events go to the event store). Shared state on Redis when REDIS_URL is set,
 * in memory otherwise. Run `npm run build` first.
 */
import { z } from 'zod';
import { createServer, defineTool, silentLogger } from '../../dist/src/index.js';

const server = createServer({
  name: 'bench-shared',
  version: '1.0.0',
  logger: silentLogger,
  lintOnStart: false,
  redis: process.env.REDIS_URL ? process.env.REDIS_URL : false,
  tools: [
    defineTool({
      name: 'echo',
      description: 'Echo the text back.',
      effect: 'read',
      world: 'closed',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => text,
    }),
    defineTool({
      name: 'limited',
      description: 'Echo, counted against a (huge) rate limit.',
      effect: 'read',
      world: 'closed',
      rateLimit: { max: 1_000_000_000, windowMs: 60_000 },
      input: z.object({ text: z.string() }),
      handler: ({ text }) => text,
    }),
    defineTool({
      name: 'steps',
      description: 'Report three progress steps, then answer.',
      effect: 'read',
      world: 'closed',
      handler: async (_args, ctx) => {
        for (let i = 1; i <= 3; i++) await ctx.progress(i, 3);
        return 'done';
      },
    }),
  ],
});
const listener = await server.listen({ port: 0, handleSignals: false });
listener.server.keepAliveTimeout = 60_000;
process.stdout.write(`listening ${listener.port}\n`);
