/**
 * Help that agrees with what the commands do: the top-level help names every command
 * (one module per command in src/cli/commands/), and observe's --env help says what
 * reaches its sandboxed server, as the rest of its help does.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';

beforeAll(() => ensureBuilt(), 120_000);

describe('candor --help', () => {
  it('names every command there is a module for', async () => {
    const commands = readdirSync(path.join(REPO, 'src', 'cli', 'commands'))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => file.replace(/\.ts$/, ''));
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    const listed = [...stdout.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]);
    for (const command of commands) expect(listed, command).toContain(command);
  });

  it("says observe's --env reaches only the sandboxed server, not the caller's whole environment", async () => {
    const { stdout } = await runCli(['observe', '--help']);
    const env = stdout.slice(stdout.indexOf('--env <KEY=VALUE>'), stdout.indexOf('\n  --env-file'));
    expect(env).not.toContain('also gets your environment');
    expect(env.replace(/\s+/g, ' ')).toContain('only these and --env-file reach the sandboxed server');
  });
});
