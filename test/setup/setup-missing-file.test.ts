/**
 * `candor setup <client>` when the client has no config file yet: the file is named as
 * missing (not as a file "with no servers"), nothing is written, and no --debug hint
 * follows a message that already says what to do.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

let home: string;

beforeAll(() => {
  ensureBuilt();
  home = mkdtempSync(path.join(tmpdir(), 'candor-setup-missing-'));
}, 120_000);

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('setup without a client config file', () => {
  it('says the file does not exist and writes nothing', async () => {
    const file = path.join(home, '.cursor', 'mcp.json');
    const { code, stderr } = await runCli(['setup', 'cursor', '--yes'], { env: { HOME: home }, cwd: home });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `candor: ${file} does not exist: Cursor has no config here, so no servers to put the gateway in front of.\n`,
    );
    expect(existsSync(file)).toBe(false);
  });

  it('still says "has no servers" for a file that is there without any', async () => {
    const file = path.join(home, '.cursor', 'mcp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{ "mcpServers": {} }\n');
    const { code, stderr } = await runCli(['setup', 'cursor', '--yes'], { env: { HOME: home }, cwd: home });
    expect(code).toBe(1);
    expect(stderr).toBe(`candor: ${file} has no servers at mcpServers to put the gateway in front of.\n`);
  });
});
