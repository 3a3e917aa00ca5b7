/**
 * `--protocol` on the commands that connect: `auto` (the default) speaks 2026-07-28 to a
 * server that offers it and 2025-11-25 to one that does not; a forced era the server does
 * not speak fails with an error naming both. Peers: the SDK v1 server (2025 only) on stdio,
 * candor servers (both eras) on stdio and over HTTP, and a candor server that speaks only
 * 2026-07-28 on stdio and over HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpListener } from '../../src/transports/http/listen.js';
import { ensureBuilt, runCli, type ServeProcess, startServe } from '../support/cli-harness.js';
import { buildModernServer } from '../support/modern-fixture.js';

const SDK_V1 = ['--', process.execPath, 'test/fixtures/sdk-v1-stdio-server.mjs'];
const DUAL = ['--', process.execPath, 'test/fixtures/one-tool-server.mjs', 'json'];
const MODERN_ONLY = [...DUAL, 'modern-only'];

let served: ServeProcess;
let modernOnly: HttpListener;

beforeAll(async () => {
  ensureBuilt();
  served = await startServe(['--example', 'workspace', '--root', 'docs']);
  modernOnly = await buildModernServer({ modernOnly: true }).server.listen({ port: 0, handleSignals: false });
}, 120_000);

afterAll(async () => {
  await served?.stop();
  await modernOnly?.close();
});

async function inspectedVersion(args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runCli(['inspect', '--json', ...args]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { protocolVersion: string }).protocolVersion;
}

describe('candor inspect --protocol', () => {
  it('speaks 2026-07-28 by default to a server that offers it, on stdio and over HTTP', async () => {
    expect(await inspectedVersion(DUAL)).toBe('2026-07-28');
    expect(await inspectedVersion([served.url])).toBe('2026-07-28');
  });

  it('falls back to 2025-11-25 by default for the SDK v1 server, and says so in the human report', async () => {
    expect(await inspectedVersion(SDK_V1)).toBe('2025-11-25');
    const { code, stdout } = await runCli(['inspect', ...SDK_V1]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toContain('· protocol 2025-11-25 ·');
  });

  it('holds a dual server to the era asked for', async () => {
    expect(await inspectedVersion(['--protocol', '2025-11-25', ...DUAL])).toBe('2025-11-25');
    expect(await inspectedVersion(['--protocol', '2025-11-25', served.url])).toBe('2025-11-25');
    expect(await inspectedVersion(['--protocol', '2026-07-28', served.url])).toBe('2026-07-28');
    expect(await inspectedVersion(['--protocol', 'auto', ...SDK_V1])).toBe('2025-11-25');
  });

  it('names both eras when the server does not speak the forced one', async () => {
    const { code, stdout, stderr } = await runCli(['inspect', '--protocol', '2026-07-28', ...SDK_V1]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('does not speak protocol 2026-07-28');
    expect(stderr).toContain('--protocol 2025-11-25 or auto');
  });

  it('refuses a version it does not know as a usage error', async () => {
    const { code, stderr } = await runCli(['inspect', '--protocol', '2024-11-05', served.url]);
    expect(code).toBe(2);
    expect(stderr).toContain('must be 2025-11-25, 2026-07-28 or auto');
  });
});

describe('candor inspect --protocol against a server that speaks only 2026-07-28', () => {
  it('speaks 2026-07-28 with auto and when it is forced, on stdio and over HTTP', async () => {
    for (const protocol of ['auto', '2026-07-28']) {
      expect(await inspectedVersion(['--protocol', protocol, ...MODERN_ONLY])).toBe('2026-07-28');
      expect(await inspectedVersion(['--protocol', protocol, modernOnly.url])).toBe('2026-07-28');
    }
    const { code, stdout } = await runCli(['inspect', modernOnly.url]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toContain('· protocol 2026-07-28 ·');
  });

  it("names both eras and the server's own refusal when 2025-11-25 is forced, on stdio and over HTTP", async () => {
    for (const target of [MODERN_ONLY, [modernOnly.url]]) {
      const { code, stdout, stderr } = await runCli(['inspect', '--protocol', '2025-11-25', ...target]);
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr).toContain('does not speak protocol 2025-11-25');
      expect(stderr).toContain('--protocol 2026-07-28 or auto');
      expect(stderr).toContain('this server speaks only 2026-07-28');
    }
  });

  it('calls its tool with auto', async () => {
    const { code, stdout } = await runCli(['call', 'echo', '--arg', 'text=hi', ...MODERN_ONLY]);
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'hi\n' });
  });
});

describe('candor call --protocol', () => {
  it('calls a tool in each era the server speaks', async () => {
    for (const protocol of ['auto', '2025-11-25', '2026-07-28']) {
      const { code, stdout } = await runCli(['call', '--protocol', protocol, 'echo', '--arg', 'text=hi', ...DUAL]);
      expect({ protocol, code, stdout }).toEqual({ protocol, code: 0, stdout: 'hi\n' });
    }
    const v1 = await runCli(['call', 'echo', '--arg', 'text=hi', ...SDK_V1]);
    expect(v1).toMatchObject({ code: 0, stdout: 'hi\n' });
  });

  it('fails clearly when the SDK v1 server is held to 2026-07-28', async () => {
    const { code, stderr } = await runCli(['call', '--protocol', '2026-07-28', 'echo', '--arg', 'text=hi', ...SDK_V1]);
    expect(code).toBe(1);
    expect(stderr).toContain('does not speak protocol 2026-07-28');
  });
});

describe('candor lint, pin and verify --protocol', () => {
  it('lints the SDK v1 server by default and names both eras when it is held to 2026-07-28', async () => {
    const ok = await runCli(['lint', '--format', 'json', ...SDK_V1]);
    expect(ok.stderr).toBe('');
    expect(JSON.parse(ok.stdout).servers[0].status).toBe('ok');
    const held = await runCli(['lint', '--protocol', '2026-07-28', ...SDK_V1]);
    expect(held.code).toBe(1);
    expect(held.stdout + held.stderr).toContain('does not speak protocol 2026-07-28');
  });

  it('pins and verifies in each era the server speaks, and refuses the one it does not', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'candor-protocol-'));
    const lock = ['--lock', path.join(dir, 'candor.lock.json')];
    try {
      expect((await runCli(['pin', ...lock, '--protocol', '2026-07-28', ...DUAL])).code).toBe(0);
      expect((await runCli(['verify', ...lock, '--protocol', '2025-11-25', ...DUAL])).code).toBe(0);
      const held = await runCli(['verify', ...lock, '--protocol', '2026-07-28', ...SDK_V1]);
      expect(held.code).toBe(1);
      expect(held.stderr).toContain('does not speak protocol 2026-07-28');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('candor scan --protocol', () => {
  it('scans a server that speaks only 2026-07-28 by default, and says which era observe spoke', async () => {
    const { code, stdout } = await runCli(['scan', '--format', 'json', ...MODERN_ONLY]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { verdict: string; protocolVersion?: string };
    expect(report.verdict).toBe('consistent');
    expect(report.protocolVersion).toBe('2026-07-28');
    const pretty = await runCli(['scan', ...MODERN_ONLY]);
    expect(pretty.stdout).toContain('protocol 2026-07-28)');
  });

  it('scans the SDK v1 server in 2025-11-25 by default', async () => {
    const { code, stdout } = await runCli(['scan', '--format', 'json', ...SDK_V1]);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { protocolVersion?: string }).protocolVersion).toBe('2025-11-25');
  });

  it('cannot scan (exit 2) when held to an era the server does not speak, and names both', async () => {
    const { code, stderr } = await runCli(['scan', '--protocol', '2025-11-25', ...MODERN_ONLY]);
    expect(code).toBe(2);
    expect(stderr).toContain('does not speak protocol 2025-11-25');
    expect(stderr).toContain('2026-07-28');
  });
});
