/**
 * One set of client names across commands: `candor setup <client>` and `candor gateway
 * --print-config <client>` take the same names and aliases, and answer an unknown one
 * with the names taken and the nearest. The entry printed names `candor` when the
 * candor on PATH is this build, as after a global install.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, runCli } from '../support/cli-harness.js';

let home: string;
beforeAll(() => ensureBuilt(), 120_000);
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'candor-names-'));
  writeFileSync(path.join(home, 'candor.gateway.json'), JSON.stringify({ servers: { a: { command: 'true' } } }));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(args, { cwd: home, env: { HOME: home, XDG_CONFIG_HOME: '', ...env } });

describe('client names', () => {
  it.each([
    ['claude', /^claude mcp add candor-gateway -- /],
    ['claude-code', /^claude mcp add candor-gateway -- /],
    ['gemini-cli', /^gemini mcp add candor-gateway /],
    ['code', /"servers": \{/],
    ['claude-desktop', /"mcpServers": \{/],
  ])('--print-config takes %s', async (name, shape) => {
    const printed = await run(['gateway', '--print-config', name]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(shape);
  });

  it('setup takes the same aliases (claude is Claude Code)', async () => {
    const listed = await run(['setup', 'claude', '--scope', 'project', '--dry-run']);
    expect(listed.stderr).toContain(`${home}/.mcp.json does not exist`);
  });

  it.each([
    [['setup', 'cursr'], 'Unknown client "cursr". Did you mean cursor?'],
    [['gateway', '--print-config', 'claud'], 'Unknown --print-config client "claud". Did you mean claude?'],
  ])('answers an unknown name with the nearest and the list: %j', async (args, message) => {
    const refused = await run(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(message);
    expect(refused.stderr).toContain(
      'Clients: claude-code (claude), claude-desktop, cursor, vscode (code, vs-code), gemini (gemini-cli).',
    );
  });
});

describe('the command in a printed entry', () => {
  it('is candor when the candor on PATH is this build, as after npm install -g', async () => {
    const bin = path.join(home, 'bin');
    mkdirSync(bin);
    symlinkSync(CLI, path.join(bin, 'candor'));
    const printed = await run(['gateway', '--print-config', 'claude-code'], {
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    });
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout.trim()).toBe(
      `claude mcp add candor-gateway -- candor gateway --stdio --config ${path.join(home, 'candor.gateway.json')}`,
    );
  });

  it('is the absolute path of this checkout otherwise, and stderr says so', async () => {
    const printed = await run(['gateway', '--print-config', 'cursor']);
    expect(printed.stdout).toContain(`"command": ${JSON.stringify(process.execPath)}`);
    expect(printed.stderr).toContain('The entry starts candor from this checkout');
  });
});
