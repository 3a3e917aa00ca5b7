/**
 * The scheduler as the server sees it: a recording server over Streamable
 * HTTP on 127.0.0.1 (2026-07-28 era) observes overlap, order, failures and
 * cancellation. No wall-clock assertions.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/index.js';
import { type RunningHttpServer, serveHttp } from '../fixtures/host/http-server.js';
import { newObservations, type Observations, recordingHandler, waitFor } from '../fixtures/host/recording-server.js';

let obs: Observations;
let http: RunningHttpServer;
let host: Host;

beforeAll(async () => {
  obs = newObservations();
  http = await serveHttp(recordingHandler(obs), async ({ req, res, body }) => {
    // Break the first two attempts of each flaky tool: the socket closes with no answer.
    const match = /"name":"(flaky_[a-z]+)"/.exec(body);
    if (req.method !== 'POST' || !match) return false;
    const tool = match[1]!;
    const attempt = (obs.attempts.get(tool) ?? 0) + 1;
    obs.attempts.set(tool, attempt);
    if (attempt > 2) return false;
    res.socket?.destroy();
    return true;
  });
  host = await createHost({
    servers: { rec: { url: http.url, trust: 'trusted', era: 'modern' } },
    // The writes here are additive (not destructive), so an allow rule lets them run without a prompt.
    policy: { preset: 'default', rules: [{ decision: 'allow', servers: 'rec' }] },
    concurrency: 4,
    retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
  });
});

afterAll(async () => {
  await host?.close();
  await http?.close();
});

afterEach(() => {
  obs.events.length = 0;
  obs.maxInFlight = 0;
  obs.overlapsWithWrite.length = 0;
});

const reads = (from: number, count: number, hold?: number) =>
  Array.from({ length: count }, (_, i) => ({ tool: 'rec__read', args: { n: from + i, ...(hold ? { hold } : {}) } }));

describe('host.run scheduling', () => {
  it('negotiates the 2026-07-28 era with the HTTP server', () => {
    expect(host.servers()[0]).toMatchObject({ name: 'rec', status: 'connected', era: 'modern' });
  });

  it('runs ten read-only calls with at most the cap in flight, and the server sees the cap reached', async () => {
    // Calls 0-7 hold until four are in flight; the last two until both are.
    const outcomes = await host.run([...reads(0, 8, 4), ...reads(8, 2, 2)]);
    expect(outcomes.map((o) => o.status)).toEqual(Array(10).fill('ok'));
    expect(obs.maxInFlight).toBe(4);
    expect(outcomes.every((o) => o.parallel)).toBe(true);
  });

  it('runs a write in the middle alone, splitting the batch into two parallel groups', async () => {
    const batch = [...reads(0, 3, 3), { tool: 'rec__write', args: { n: 3 } }, ...reads(4, 2, 2)];
    const outcomes = await host.run(batch);
    expect(outcomes.map((o) => o.status)).toEqual(Array(6).fill('ok'));
    expect(obs.overlapsWithWrite).toEqual([]);
    const at = (event: string) => obs.events.indexOf(event);
    // Every read before the write ended before it started; every read after started after it ended.
    for (const n of [0, 1, 2]) expect(at(`end:${n}`)).toBeLessThan(at('start:3'));
    for (const n of [4, 5]) expect(at(`start:${n}`)).toBeGreaterThan(at('end:3'));
    // The reads on each side overlapped with each other.
    expect(obs.maxInFlight).toBe(3);
    expect(outcomes[3]!.parallel).toBe(false);
  });

  it('returns outcomes in request order even when the server finishes them in reverse', async () => {
    const outcomes = await host.run([
      { id: 'a', tool: 'rec__read', args: { n: 0, after: 1 } },
      { id: 'b', tool: 'rec__read', args: { n: 1, after: 2 } },
      { id: 'c', tool: 'rec__read', args: { n: 2 } },
    ]);
    expect(obs.events.filter((e) => e.startsWith('end:'))).toEqual(['end:2', 'end:1', 'end:0']);
    expect(outcomes.map((o) => [o.id, o.index, (o.result!.structuredContent as { n: number }).n])).toEqual([
      ['a', 0, 0],
      ['b', 1, 1],
      ['c', 2, 2],
    ]);
  });

  it('lets a failing read finish without cancelling its siblings', async () => {
    const outcomes = await host.run([
      { tool: 'rec__read', args: { n: 0, after: 1 } },
      { tool: 'rec__read_fail', args: { n: 1 } },
      { tool: 'rec__read', args: { n: 2, after: 1 } },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'error', 'ok']);
    expect(outcomes[1]!.message).toContain('read 1 failed');
    expect(obs.events.filter((e) => e.startsWith('end:')).sort()).toEqual(['end:0', 'end:1', 'end:2']);
  });

  it('stops the batch after a failing write and reports the rest as skipped, which the server never sees', async () => {
    const outcomes = await host.run([
      { tool: 'rec__read', args: { n: 0 } },
      { tool: 'rec__write_fail', args: { n: 1 } },
      { tool: 'rec__read', args: { n: 2 } },
      { tool: 'rec__write', args: { n: 3 } },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'error', 'skipped', 'skipped']);
    expect(outcomes[2]!.message).toContain('call #2 (rec__write_fail) ended error');
    expect(obs.events).not.toContain('start:2');
    expect(obs.events).not.toContain('start:3');
  });

  it('cancels calls in flight on the server when the batch signal aborts, and starts nothing more', async () => {
    const controller = new AbortController();
    const running = host.run(
      [
        { tool: 'rec__hang', args: { n: 0 } },
        { tool: 'rec__hang', args: { n: 1 } },
        { tool: 'rec__write', args: { n: 2 } },
      ],
      { signal: controller.signal },
    );
    await waitFor(obs, () => obs.events.includes('start:0') && obs.events.includes('start:1'), 10_000);
    controller.abort();
    const outcomes = await running;
    expect(outcomes.map((o) => o.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    await waitFor(obs, () => obs.events.includes('aborted:0') && obs.events.includes('aborted:1'), 10_000);
    expect(obs.events).toContain('aborted:0');
    expect(obs.events).toContain('aborted:1');
    expect(obs.events).not.toContain('start:2');
  });

  it('times a call out and cancels it on the server', async () => {
    const [outcome] = await host.run([{ tool: 'rec__hang', args: { n: 7 }, timeoutMs: 200 }]);
    expect(outcome!.status).toBe('timeout');
    await waitFor(obs, () => obs.events.includes('aborted:7'), 10_000);
    expect(obs.events).toContain('aborted:7');
  });

  it('retries a read-only call of a trusted server after transport failures', async () => {
    const [outcome] = await host.run([{ tool: 'rec__flaky_read', args: { n: 1 } }]);
    expect(outcome!.status).toBe('ok');
    expect(outcome!.attempts).toBe(3);
    expect(obs.attempts.get('flaky_read')).toBe(3);
  });

  it('retries an idempotent write of a trusted server', async () => {
    const [outcome] = await host.run([{ tool: 'rec__flaky_idempotent', args: { n: 1 } }]);
    expect(outcome!.status).toBe('ok');
    expect(obs.attempts.get('flaky_idempotent')).toBe(3);
  });

  it('never repeats a non-idempotent write after a transport failure: its outcome is unknown', async () => {
    const outcomes = await host.run([
      { tool: 'rec__flaky_write', args: { n: 1 } },
      { tool: 'rec__read', args: { n: 2 } },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['unknown', 'skipped']);
    expect(outcomes[0]!.attempts).toBe(1);
    expect(obs.attempts.get('flaky_write')).toBe(1);
    expect(outcomes[0]!.message).toContain('may or may not have run');
  });

  it('reports an unknown tool as an error without stopping the batch', async () => {
    const outcomes = await host.run([{ tool: 'rec__nope' }, { tool: 'rec__read', args: { n: 1 } }]);
    expect(outcomes.map((o) => o.status)).toEqual(['error', 'ok']);
    expect(outcomes[0]!.message).toContain('no tool named rec__nope');
  });
});
