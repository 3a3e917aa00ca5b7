/**
 * `candor pin`, `verify`, `ui`, `inspect` and `lint` start a config entry's server to list its tools,
 * before anyone approved it. An entry that asks for a sandbox (or every
 * entry, with the file's `"sandbox": true` or `--sandbox`) runs in the gateway's
 * sandbox there too, through the gateway's own code. With real bubblewrap: a probe
 * that reads a secret file of the real HOME as it starts, and says what it read in a
 * tool's description, cannot read it; the unsandboxed control, in the same run, can.
 * Without bwrap they refuse with the gateway's one line.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCli } from '../support/cli-harness.js';
import { ensureUiBuilt, startUi, type UiProcess } from '../support/ui-support.js';

const probe = path.join(REPO, 'test/fixtures/sandbox/probe-server.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'candor-sandbox-review-'));
const noBwrap = path.join(dir, 'empty-path');
const secretFile = path.join(homedir(), `.candor-review-secret-${process.pid}`);
const secret = `secret-${process.pid}-${Date.now()}`;
const uis: UiProcess[] = [];

beforeAll(() => {
  ensureUiBuilt();
  writeFileSync(secretFile, `${secret}\n`, { mode: 0o600 });
  mkdirSync(noBwrap);
});

afterAll(async () => {
  for (const ui of uis) await ui.stop();
  rmSync(secretFile, { force: true });
  rmSync(dir, { recursive: true, force: true });
});

/** A config entry for the probe, which reads the secret file as it starts. */
const entry = (sandbox?: unknown) => ({
  command: process.execPath,
  args: [probe],
  env: { PROBE_READ_AT_START: secretFile },
  ...(sandbox === undefined ? {} : { sandbox }),
});

function config(name: string, content: object): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

/** What each pinned server's probe saw as it started (its `seen_at_start` description). */
function seenInLock(lock: string): Record<string, string> {
  const parsed = JSON.parse(readFileSync(lock, 'utf8')) as {
    servers: Record<string, { tools: Record<string, { definition: { description?: string } }> }>;
  };
  return Object.fromEntries(
    Object.entries(parsed.servers).map(([server, pins]) => [
      server,
      pins.tools.seen_at_start?.definition.description ?? '',
    ]),
  );
}

describe('candor pin and verify run a sandboxed entry in its sandbox', () => {
  it('pins what the sandboxed server saw (not the secret); the unsandboxed control read it; verify agrees', async () => {
    const file = config('review.gateway.json', { servers: { boxed: entry(true), open: entry() } });
    const lock = path.join(dir, 'review.lock.json');
    // Two copies of the probe share tool names: accept the shadowing to pin both in one run.
    const pin = await runCli(['pin', '--config', file, '--lock', lock, '--accept', 'name-shadows-tool']);
    expect(pin.code, pin.stderr).toBe(0);
    expect(pin.stderr).toContain('boxed: sandboxed (no network;');
    const seen = seenInLock(lock);
    expect(seen.boxed).toContain(`${secretFile}: error: ENOENT`);
    expect(seen.boxed).not.toContain(secret);
    expect(seen.open).toContain(`${secretFile}: ok: ${secret}`);

    // verify starts them the same way: run unsandboxed, boxed would say the secret and drift.
    const verify = await runCli(['verify', '--config', file, '--lock', lock]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toContain('boxed: 6 tools match');
  }, 60_000);

  it('--sandbox and the top-level "sandbox": true sandbox every entry not marked false, as in the gateway', async () => {
    const servers = { plain: entry(), optedOut: entry(false) };
    const byFile = path.join(dir, 'by-file.lock.json');
    const fileRun = await runCli([
      'pin',
      '--config',
      config('by-file.gateway.json', { sandbox: true, servers }),
      '--lock',
      byFile,
      '--accept',
      'name-shadows-tool',
    ]);
    expect(fileRun.code, fileRun.stderr).toBe(0);
    const byFlag = path.join(dir, 'by-flag.lock.json');
    const flagRun = await runCli([
      'pin',
      '--sandbox',
      '--config',
      config('by-flag.gateway.json', { servers }),
      '--lock',
      byFlag,
      '--accept',
      'name-shadows-tool',
    ]);
    expect(flagRun.code, flagRun.stderr).toBe(0);
    for (const lock of [byFile, byFlag]) {
      const seen = seenInLock(lock);
      expect(seen.plain).toContain(`${secretFile}: error: ENOENT`);
      expect(seen.optedOut).toContain(`${secretFile}: ok: ${secret}`);
    }
  }, 60_000);

  it('gives a sandboxed -- command only what --env sets, never the caller environment', async () => {
    const run = (sandbox: boolean, lock: string) =>
      runCli(
        [
          'pin',
          ...(sandbox ? ['--sandbox'] : []),
          '--lock',
          lock,
          '--name',
          'cmd',
          '--env',
          `PROBE_READ_AT_START=${secretFile}`,
          '--env',
          'PROBE_ENV_AT_START=CANDOR_REVIEW_SECRET',
          '--',
          process.execPath,
          probe,
        ],
        { env: { CANDOR_REVIEW_SECRET: secret } },
      );
    const boxedLock = path.join(dir, 'cmd-boxed.lock.json');
    const openLock = path.join(dir, 'cmd-open.lock.json');
    expect((await run(true, boxedLock)).code).toBe(0);
    expect((await run(false, openLock)).code).toBe(0);
    expect(seenInLock(boxedLock).cmd).toBe(
      `Says what this server saw as it started. ${secretFile}: error: ENOENT; CANDOR_REVIEW_SECRET=(unset).`,
    );
    expect(seenInLock(openLock).cmd).toBe(
      `Says what this server saw as it started. ${secretFile}: ok: ${secret}; CANDOR_REVIEW_SECRET=${secret}.`,
    );
  }, 60_000);

  it('refuses where bwrap is missing, with the gateway line, and writes nothing', async () => {
    const file = config('nobwrap.gateway.json', { servers: { boxed: entry(true), open: entry() } });
    const lock = path.join(dir, 'nobwrap.lock.json');
    const run = await runCli(['pin', '--config', file, '--lock', lock], { env: { PATH: noBwrap } });
    expect(run.code).not.toBe(0);
    const lines = run.stderr.split('\n').filter((line) => line.includes('boxed: not started'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /boxed: not started: it asks for a sandbox and this machine needs bwrap for its sandbox: install it \(Debian\/Ubuntu: apt-get install bubblewrap\)\./,
    );
    expect(() => readFileSync(lock)).toThrow();
  }, 60_000);
});

describe('candor inspect and lint run a sandboxed entry in its sandbox', () => {
  it('inspect lists what the sandboxed entry saw; the unsandboxed control read the secret', async () => {
    const file = config('inspect.gateway.json', { servers: { boxed: entry(true), open: entry() } });
    const seen = async (server: string) => {
      const run = await runCli(['inspect', `${file}#${server}`, '--json']);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as { tools: Array<{ name: string; description?: string }> };
      return { run, description: report.tools.find((t) => t.name === 'seen_at_start')?.description ?? '' };
    };
    const boxed = await seen('boxed');
    expect(boxed.description).toContain(`${secretFile}: error: ENOENT`);
    expect(boxed.run.stderr).toContain('boxed: sandboxed (no network;');
    expect((await seen('open')).description).toContain(`${secretFile}: ok: ${secret}`);
  }, 60_000);

  it('lint runs it sandboxed, and reports it failed with the gateway line where bwrap is missing', async () => {
    const file = config('lint.gateway.json', { servers: { boxed: entry(true), open: entry() } });
    const report = async (env: NodeJS.ProcessEnv) => {
      const run = await runCli(['lint', '--config', file, '--format', 'json'], { env });
      return {
        run,
        servers: (JSON.parse(run.stdout) as { servers: Array<{ server: string; status: string; error?: string }> })
          .servers,
      };
    };
    const withBwrap = await report({});
    expect(withBwrap.servers.map((s) => [s.server, s.status])).toEqual([
      ['boxed', 'ok'],
      ['open', 'ok'],
    ]);
    expect(withBwrap.run.stderr).toContain('candor lint info: boxed: sandboxed (no network;');
    const without = await report({ PATH: noBwrap });
    expect(without.servers.map((s) => [s.server, s.status])).toEqual([
      ['boxed', 'failed'],
      ['open', 'ok'],
    ]);
    expect(without.servers[0]!.error).toMatch(
      /^boxed: not started: it asks for a sandbox and this machine needs bwrap for its sandbox/,
    );
  }, 60_000);
});

describe('candor ui runs a sandboxed entry in its sandbox', () => {
  const seenInUi = async (ui: UiProcess, server: string) => {
    const response = await fetch(`${ui.origin}/api/tool?name=${server}__seen_at_start`, {
      headers: { 'x-candor-token': ui.token },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { description: string }).description;
  };

  it('lists what the sandboxed servers saw (--sandbox and "sandbox": true); the opted-out control read the secret', async () => {
    const file = config('ui.gateway.json', {
      servers: { boxed: entry(true), plain: entry(), optedOut: entry(false) },
    });
    const ui = await startUi(['--sandbox', '--config', file]);
    uis.push(ui);
    expect(await seenInUi(ui, 'boxed')).toContain(`${secretFile}: error: ENOENT`);
    expect(await seenInUi(ui, 'plain')).toContain(`${secretFile}: error: ENOENT`);
    expect(await seenInUi(ui, 'optedOut')).toContain(`${secretFile}: ok: ${secret}`);
    expect(ui.output()).toContain('boxed: sandboxed (no network;');
  }, 60_000);

  it('refuses a sandboxed entry where bwrap is missing, with the gateway line, and shows the rest', async () => {
    const file = config('ui-nobwrap.gateway.json', { servers: { boxed: entry(true), open: entry() } });
    const ui = await startUi(['--config', file], { env: { PATH: noBwrap } });
    uis.push(ui);
    const lines = ui
      .output()
      .split('\n')
      .filter((line) => line.includes('boxed: not started'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('it asks for a sandbox and this machine needs bwrap for its sandbox');
    const state = (await (
      await fetch(`${ui.origin}/api/state`, { headers: { 'x-candor-token': ui.token } })
    ).json()) as { servers: Array<{ name: string; status: string }> };
    expect(state.servers.map((s) => [s.name, s.status])).toEqual([['open', 'connected']]);
  }, 60_000);
});
