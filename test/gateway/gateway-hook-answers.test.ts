/**
 * A hook that says no is obeyed whatever the failure mode: with hooks failing open, a
 * deny without a reason, a deny sent with an HTTP error status and a deny in capitals
 * still refuse the call (only a hook that gives no answer at all lets it through), for
 * SDK v1 and v2 clients in both eras. An absurd hook timeout is refused in the config
 * (naming the key and the range), and one set in code is clamped instead of firing at
 * once: a hook that answers after a moment is still heard.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';
import { downstreamClients } from '../support/downstream-clients.js';

const fixture = join(import.meta.dirname, '../fixtures/gateway/upstream.mjs');
const dir = mkdtempSync(join(tmpdir(), 'candor-hook-answers-'));
const closers: Array<() => Promise<unknown>> = [];
const silent = { error() {}, warn() {}, info() {}, debug() {} };
let hooks: string;

/** Each path answers one way: `/<status>/<body>`; `/late/…` answers after a moment. */
const ANSWERS: Record<string, { status: number; body: string; lateMs?: number }> = {
  'deny-no-reason': { status: 200, body: '{"decision":"deny"}' },
  'deny-403': { status: 403, body: '{"decision":"deny","reason":"not on weekends"}' },
  'deny-capitals': { status: 200, body: '{"decision":"DENY","reason":"shouting"}' },
  'error-500': { status: 500, body: 'internal error' },
  allow: { status: 200, body: '{"decision":"allow"}' },
  'late-deny': { status: 200, body: '{"decision":"deny","reason":"thought about it"}', lateMs: 50 },
};

beforeAll(async () => {
  ensureBuilt();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = ANSWERS[(req.url ?? '').slice(1)];
      const send = () => {
        res.writeHead(answer?.status ?? 404, { 'content-type': 'application/json' });
        res.end(answer?.body ?? '');
      };
      // The hook's own pace (a service that thinks), not a wait in the test.
      if (answer?.lateMs) setTimeout(send, answer.lateMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hooks = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(() => new Promise((resolve) => server.close(resolve)));
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

let logs = 0;
async function startGateway(hookSettings: GatewayOptions['hooks']): Promise<{ url: string; ran: () => number }> {
  const log = join(dir, `upstream-${++logs}.log`);
  const gateway = await createGateway({
    servers: { notes: { command: process.execPath, args: [fixture], env: { GATEWAY_FIXTURE_LOG: log } } },
    policy: 'yolo',
    hooks: hookSettings,
    logger: silent,
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  closers.push(
    () => gateway.close(),
    () => listener.close(),
  );
  const ran = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).length : 0);
  return { url: listener.url, ran };
}

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((b) => b.text ?? '').join('\n');

describe.each(downstreamClients(closers))('hooks failing open, with %s', (_, connect) => {
  it.each([
    ['deny-no-reason', 'no reason given'],
    ['deny-403', 'not on weekends'],
    ['deny-capitals', 'shouting'],
  ])('a %s answer still refuses the call', async (answer, reason) => {
    const { url, ran } = await startGateway({ beforeCall: `${hooks}/${answer}`, failure: 'open' });
    const call = await connect(url);
    const result = await call('notes__read_notes');
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(`candor gateway: notes__read_notes was refused by the beforeCall hook: ${reason}`);
    expect(ran()).toBe(0);
  });

  it('an afterCall deny withholds the result, while a hook that fails lets the call through', async () => {
    const { url, ran } = await startGateway({
      beforeCall: `${hooks}/error-500`,
      afterCall: `${hooks}/deny-no-reason`,
      failure: 'open',
    });
    const call = await connect(url);
    const result = await call('notes__read_notes');
    expect(text(result)).toBe(
      'candor gateway: the result of notes__read_notes was withheld by the afterCall hook: no reason given',
    );
    expect(ran()).toBe(1);
  });
});

describe('hook timeouts', () => {
  it('an absurd timeout in the config is refused, naming the key and the range', async () => {
    const file = join(dir, 'absurd.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: { notes: { command: process.execPath, args: [fixture] } },
        hooks: { beforeCall: `${hooks}/allow`, timeoutMs: 1e12 },
      }),
    );
    const run = await runCli(['gateway', '--config', file, '--http', '127.0.0.1:0']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      'hooks: timeoutMs must be a number of milliseconds above 0 and at most 60000 (got 1000000000000)',
    );
  });

  it('a timeout set in code past what a timer holds is clamped: a hook that answers after a moment is heard', async () => {
    const { url, ran } = await startGateway({ beforeCall: `${hooks}/late-deny`, timeoutMs: 1e12, failure: 'open' });
    const [, connect] = downstreamClients(closers)[1]!;
    const result = await (await connect(url))('notes__read_notes');
    expect(text(result)).toBe('candor gateway: notes__read_notes was refused by the beforeCall hook: thought about it');
    expect(ran()).toBe(0);
  });
});
