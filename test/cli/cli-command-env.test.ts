/**
 * The environment of a server started with `-- <command>`: it gets
 * the caller's environment (so `GITHUB_TOKEN=… candor lint -- npx …` reaches
 * the server), `--env-file` and `--env KEY=VALUE` are laid over it, and a
 * config file entry runs exactly as clients run it: its own `env` over the
 * SDK's safe default, without the caller's other variables. Through the built
 * binary, against a real stdio server that reports its environment.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';

let dir: string;
let server: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-env-'));
  server = path.join(dir, 'env-server.mjs');
  const dist = (p: string) => JSON.stringify(path.join(REPO, 'dist', p));
  writeFileSync(
    server,
    `import { defineTool } from ${dist('src/tool/define.js')};
import { createServer } from ${dist('src/server/create-server.js')};
createServer({ name: 'env-server', version: '1.0.0', lintOnStart: false, tools: [defineTool({
  name: 'env_var', description: 'Say the value of an environment variable of this server.', effect: 'read', world: 'closed',
  input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  handler: ({ name }) => process.env[name] ?? '<unset>',
})] }).stdio();
`,
  );
  writeFileSync(path.join(dir, 'vars.env'), '# test values\nFROM_FILE=file value\nexport OVERRIDDEN="from the file"\n');
  writeFileSync(
    path.join(dir, 'mcp.json'),
    JSON.stringify({
      mcpServers: { env: { command: process.execPath, args: [server], env: { FROM_ENTRY: 'entry' } } },
    }),
  );
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function envVar(name: string, target: string[], options: string[] = [], env: NodeJS.ProcessEnv = {}) {
  // `candor call <tool> … -- <command>`, or `candor call <target> <tool> …`
  const call = ['env_var', '--arg', `name=${name}`];
  const words = target[0] === '--' ? [...call, ...target] : [...target, ...call];
  const run = await runCli(['call', ...options, ...words], { env, cwd: dir });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout.trim();
}

describe('candor call -- <command>: the server environment', () => {
  const command = () => ['--', process.execPath, server];

  it("passes the caller's environment on", async () => {
    expect(await envVar('CANDOR_TEST_TOKEN', command(), [], { CANDOR_TEST_TOKEN: 'secret-1' })).toBe('secret-1');
  });

  it('lays --env-file and then --env over it, a pair winning over the file', async () => {
    const options = ['--env-file', 'vars.env', '--env', 'OVERRIDDEN=from the flag', '--env', 'EMPTY='];
    const callerEnv = { OVERRIDDEN: 'from the caller', FROM_FILE: 'caller' };
    expect(await envVar('FROM_FILE', command(), options, callerEnv)).toBe('file value');
    expect(await envVar('OVERRIDDEN', command(), options, callerEnv)).toBe('from the flag');
    expect(await envVar('EMPTY', command(), options, callerEnv)).toBe('');
  });

  it('refuses a malformed pair and a missing file, naming them, before starting anything', async () => {
    const bad = await runCli(['call', '--env', 'NOEQUALS', 'env_var', '--arg', 'name=X', ...command()], { cwd: dir });
    expect(bad.stderr).toContain('--env "NOEQUALS": expected KEY=VALUE');
    expect(bad.code).toBe(2);
    // Node itself checks every --env-file argument on its command line, even after the script, and
    // stops first (exit 9, "node: nope.env: not found"); candor's own check says the same otherwise.
    const missing = await runCli(['inspect', '--env-file', 'nope.env', ...command()], { cwd: dir });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/nope\.env: (not found|no such file)/);
  });
});

describe('a config file entry runs as clients run it', () => {
  it("gets its own env over the SDK's safe default, not the caller's other variables", async () => {
    const entry = ['mcp.json#env'];
    expect(await envVar('FROM_ENTRY', entry)).toBe('entry');
    expect(await envVar('CANDOR_TEST_TOKEN', entry, [], { CANDOR_TEST_TOKEN: 'secret-2' })).toBe('<unset>');
    expect(await envVar('PATH', entry)).not.toBe('<unset>');
  });

  it('refuses --env for it, saying why', async () => {
    const run = await runCli(['call', 'mcp.json#env', 'env_var', '--arg', 'name=X', '--env', 'A=1'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--env and --env-file apply to a server started with -- <command>');
  });
});

describe('every command that starts a server takes the flags', () => {
  it.each(['inspect', 'lint', 'pin', 'verify', 'call'])('candor %s --help lists --env and --env-file', async (name) => {
    const help = await runCli([name, '--help']);
    expect(help.stdout).toContain('--env <KEY=VALUE>');
    expect(help.stdout).toContain('--env-file <file>');
  });

  it('candor lint -- <command> starts the server with the caller environment and --env', async () => {
    const run = await runCli(['lint', '--format', 'json', '--env', 'X=1', '--', process.execPath, server], {
      cwd: dir,
      env: { CANDOR_TEST_TOKEN: 'x' },
    });
    expect(JSON.parse(run.stdout).servers[0].status).toBe('ok');
  });
});
