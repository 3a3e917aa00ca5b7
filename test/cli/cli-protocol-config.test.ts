/**
 * The `"protocol"` key of a server entry, in a client config file and in the gateway's
 * config: it holds the connection to one era unless `--protocol` says otherwise, and a
 * value that is not an era is refused naming the entry.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../src/gateway/index.js';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'candor-protocol-key-'));
const dual = { command: process.execPath, args: [path.join(REPO, 'test/fixtures/one-tool-server.mjs'), 'json'] };
const sdkV1 = { command: process.execPath, args: [path.join(REPO, 'test/fixtures/sdk-v1-stdio-server.mjs')] };
const config = path.join(dir, 'mcp.json');

beforeAll(() => {
  ensureBuilt();
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        old: { ...dual, protocol: '2025-11-25' },
        plain: dual,
        strict: { ...sdkV1, protocol: '2026-07-28' },
        wrong: { ...dual, protocol: '2024-01-01' },
      },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function versionOf(args: string[]) {
  const run = await runCli(['inspect', '--json', ...args]);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { protocolVersion: string }).protocolVersion;
}

describe('"protocol" in a client config entry', () => {
  it('holds the entry to its era, and --protocol wins over it', async () => {
    expect(await versionOf([`${config}#old`])).toBe('2025-11-25');
    expect(await versionOf([`${config}#plain`])).toBe('2026-07-28');
    expect(await versionOf(['--protocol', 'auto', `${config}#old`])).toBe('2026-07-28');
  });

  it('an era the server lacks fails clearly, naming both', async () => {
    // lint reports a server it could not start in its output (exit 1), as for any target.
    const run = await runCli(['lint', `${config}#strict`]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('strict: the server does not speak protocol 2026-07-28');
  });

  it('a value that is not an era is refused, naming the entry and the values', async () => {
    const run = await runCli(['inspect', `${config}#wrong`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('wrong: "protocol" must be "2025-11-25", "2026-07-28" or "auto"; got "2024-01-01"');
  });
});

describe('"protocol" in the gateway config', () => {
  it('sets the upstream era; "era" still works; a bad value names its JSON path', async () => {
    const file = path.join(dir, 'candor.gateway.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: { a: { ...dual, protocol: '2026-07-28' }, b: { ...dual, era: 'legacy' }, c: dual },
      }),
    );
    const options = await loadGatewayConfig(file);
    expect(options.servers.a?.era).toBe('modern');
    expect(options.servers.b?.era).toBe('legacy');
    expect(options.servers.c?.era).toBeUndefined();
    writeFileSync(file, JSON.stringify({ servers: { a: { ...dual, protocol: 'newest' } } }));
    await expect(loadGatewayConfig(file)).rejects.toThrow(
      /servers\.a.*"protocol" must be "2025-11-25", "2026-07-28" or "auto"/,
    );
  });
});
