/**
 * A stdio server is started once when its era is asked: the question goes to the
 * server's own process (the SDK's way starts a second copy to ask it), through the CLI
 * and through the host. A server that quits on a request before `initialize` is started
 * a second time and spoken to in 2025-11-25.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../src/host/index.js';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'candor-one-start-'));
const counted = path.join(REPO, 'test/fixtures/counted-start.mjs');
const servers = {
  sdkV1: path.join(REPO, 'test/fixtures/sdk-v1-stdio-server.mjs'),
  dual: path.join(REPO, 'test/fixtures/one-tool-server.mjs'),
  strict: path.join(REPO, 'test/fixtures/observe/strict-init.mjs'),
};
let runs = 0;
const startLog = () => path.join(dir, `starts-${++runs}.log`);
const starts = (log: string) => readFileSync(log, 'utf8').trim().split('\n').length;

beforeAll(() => ensureBuilt());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one server process for the era question', () => {
  it.each([
    ['the SDK v1 server', servers.sdkV1, [], '2025-11-25', 1],
    ['a candor server', servers.dual, ['json'], '2026-07-28', 1],
    ['a server that quits before initialize', servers.strict, [], '2025-11-25', 2],
  ] as Array<[string, string, string[], string, number]>)(
    'candor inspect starts %s as often as it must',
    async (_name, server, args, version, count) => {
      const log = startLog();
      const run = await runCli(['inspect', '--json', '--', process.execPath, counted, server, ...args], {
        env: { START_LOG: log },
      });
      expect(run.code, run.stderr).toBe(0);
      expect((JSON.parse(run.stdout) as { protocolVersion: string }).protocolVersion).toBe(version);
      expect(starts(log)).toBe(count);
    },
  );

  it('the host starts each server once, and twice only the one that quits before initialize', async () => {
    const log = startLog();
    const env = { START_LOG: log, PATH: process.env.PATH ?? '' };
    const host = await createHost({
      servers: {
        old: { command: process.execPath, args: [counted, servers.sdkV1], env, stderr: 'ignore' },
        strict: { command: process.execPath, args: [counted, servers.strict], env, stderr: 'ignore', trust: 'trusted' },
      },
    });
    try {
      expect(
        host
          .tools()
          .map((t) => t.name)
          .sort(),
      ).toEqual(['old__echo', 'strict__hello']);
      expect(starts(log)).toBe(3);
      const result = await host.call('strict__hello', {});
      expect(result.status).toBe('ok');
    } finally {
      await host.close();
    }
  });
});
