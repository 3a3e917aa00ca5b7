/**
 * `candor/fetch` in Cloudflare's runtime: the Worker in test/fixtures/worker/server.ts,
 * bundled with esbuild the way a Worker is deployed (no Node.js built-ins) and run in
 * workerd (the `workerd` npm package's binary), without and with `nodejs_compat`. The
 * official clients call its tools over HTTP in both eras: the SDK v2 client on 2026-07-28
 * and on 2025-11-25, and the SDK v1 client; rate limits (a tool's and the endpoint's) count
 * in the isolate's memory; what needs Node.js fails there with an error that says so.
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createModernWireCheck } from '../support/modern-wire-check.js';
import { bundleWorker, type RunningWorker, startWorker } from '../support/workerd.js';

const entry = fileURLToPath(new URL('../fixtures/worker/server.ts', import.meta.url));
function v2Client(era: 'modern' | 'legacy'): Client {
  const client = new Client(
    { name: 'workerd-peer', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  return client;
}

function text(result: object): string {
  return ((result as { content: Array<{ text: string }> }).content ?? []).map((c) => c.text).join('');
}

describe.each([{ flags: [] as string[] }, { flags: ['nodejs_compat'] }])(
  'workerd with compatibility flags $flags',
  ({ flags }) => {
    let worker: RunningWorker;
    let url: URL;

    beforeAll(async () => {
      worker = await startWorker(await bundleWorker(entry), { flags });
      url = new URL('/mcp', worker.origin);
    }, 60_000);

    afterAll(async () => {
      await worker?.stop();
    });

    describe.each(['modern', 'legacy'] as const)('the SDK v2 client (%s era) and a candor Worker in workerd', (era) => {
      test('lists the tools and calls one', async () => {
        const client = v2Client(era);
        await client.connect(new StreamableHTTPClientTransport(url));
        try {
          expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name)).toEqual(['count', 'delete_note', 'echo', 'limited', 'node_only', 'tag']);
          expect(text(await client.callTool({ name: 'echo', arguments: { text: era } }))).toBe(`${era} (from workerd)`);
        } finally {
          await client.close();
        }
      });

      test('streams progress, asks the user before a destructive call, and refuses bad arguments (zod and JSON Schema)', async () => {
        const client = v2Client(era);
        const wire = createModernWireCheck();
        await client.connect(
          era === 'modern' ? wire.wrap(new StreamableHTTPClientTransport(url)) : new StreamableHTTPClientTransport(url),
        );
        try {
          const counted = await client.callTool({ name: 'count', arguments: {} }, { onprogress: () => {} });
          expect(text(counted)).toBe('counted');
          expect(text(await client.callTool({ name: 'delete_note', arguments: { id: 'n1' } }))).toBe('deleted n1');
          const bad = await client.callTool({ name: 'echo', arguments: { text: 3 } });
          expect(bad.isError).toBe(true);
          // A raw JSON Schema is checked without Ajv (workerd forbids the code it generates).
          expect(text(await client.callTool({ name: 'tag', arguments: { label: 'ok' } }))).toBe('tagged ok');
          const long = await client.callTool({ name: 'tag', arguments: { label: 'far too long a label' } });
          expect(long.isError).toBe(true);
          expect(text(long)).toContain('label');
          if (era === 'modern') {
            // The elicitation travelled as an input_required round, progress on the call's own stream.
            expect(wire.resultsOf('tools/call').some((r) => r.resultType === 'input_required')).toBe(true);
            expect((wire.serverMessages as any[]).filter((m) => m.method === 'notifications/progress')).toHaveLength(3);
            wire.assertClean();
          }
        } finally {
          await client.close();
        }
      });
    });

    describe('the SDK v1 client and a candor Worker in workerd', () => {
      test('lists the tools and calls one over 2025-11-25', async () => {
        const client = new ClientV1({ name: 'workerd-v1', version: '1.0.0' });
        await client.connect(new HttpTransportV1(url));
        try {
          expect((await client.listTools()).tools).toHaveLength(6);
          expect(text(await client.callTool({ name: 'echo', arguments: { text: 'v1' } }))).toBe('v1 (from workerd)');
        } finally {
          await client.close();
        }
      });
    });

    describe('rate limits in workerd, counted in the isolate', () => {
      test("a tool's rateLimit lets max calls through in the window and answers the next with the rate-limit tool error", async () => {
        const client = v2Client('modern');
        await client.connect(new StreamableHTTPClientTransport(url));
        try {
          const call = () => client.callTool({ name: 'limited', arguments: {} });
          for (let i = 0; i < 2; i++) expect(text(await call())).toBe('within the limit');
          const over = await call();
          expect(over.isError).toBe(true);
          expect(text(over)).toMatch(
            /^Rate limit reached for tool "limited": at most 2 calls per minute\. Try again in \d+ seconds?\.$/,
          );
        } finally {
          await client.close();
        }
      });

      test('the endpoint rateLimit answers requests past max with 429 and Retry-After', async () => {
        const post = () =>
          fetch(new URL('/limited', worker.origin), {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
          });
        const statuses: number[] = [];
        let last: Response | undefined;
        for (let i = 0; i < 3; i++) {
          last = await post();
          statuses.push(last.status);
          await last.body?.cancel();
        }
        expect(statuses[2]).toBe(429);
        expect(statuses.slice(0, 2)).not.toContain(429);
        expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
      });
    });

    describe('what needs Node.js, used in workerd', () => {
      test.each([
        ['stdio', 'server.stdio() needs Node.js'],
        ['listen', 'server.listen() needs Node.js'],
        ['redis', 'Shared state on Redis (the redis option or REDIS_URL) needs Node.js'],
      ])('%s fails with a node_only error that says so', async (part, expected) => {
        const client = v2Client('modern');
        await client.connect(new StreamableHTTPClientTransport(url));
        try {
          const answer = text(await client.callTool({ name: 'node_only', arguments: { part } }));
          expect(answer).toContain(`node_only: ${expected}`);
          expect(answer).toContain('docs/serve/fetch-runtimes.md');
        } finally {
          await client.close();
        }
      });
    });
  },
);
