/** candor serving one echo tool over stdio (from dist/: run `npm run build` first). */
import { z } from 'zod';
import { createServer, defineTool, silentLogger } from '../../dist/src/index.js';

createServer({
  name: 'bench-candor-stdio',
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
}).stdio();
