import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { requestFailure } from './failures.js';

describe('requestFailure', () => {
  it('names the request and follows a local error to its cause', async () => {
    // A loopback port nothing listens on: taken, then let go.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    server.close();
    await once(server, 'close');
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    const failure = requestFailure('tools/list', error, []);
    expect(failure.code).toBe('observe_list_failed');
    expect(failure.message).toBe(
      `tools/list failed: fetch failed (cause: connect ECONNREFUSED 127.0.0.1:${port}). It wrote nothing to stderr.`,
    );
    expect(failure.cause).toBe(error);
  });
});
