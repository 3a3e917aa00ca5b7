/**
 * The workspace example lints clean: `npm start` used to open with an info on its own
 * `write_file`, a name that says "replaces what is there" on a tool that only creates.
 * The tool is `create_file` now, as its title always said; `overwrite_file` is the one
 * that replaces, and says so with destructiveHint. Linted over the wire, as a host sees it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, runCli } from '../support/cli-harness.js';

beforeAll(() => ensureBuilt(), 120_000);

describe('the workspace example', () => {
  it('has no lint finding, not even an info', async () => {
    const { code, stdout } = await runCli([
      'lint',
      '--format',
      'json',
      '--',
      process.execPath,
      CLI,
      'serve',
      '--example',
      'workspace',
      '--stdio',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      servers: Array<{ status: string; toolCount: number; findings: unknown[] }>;
    };
    expect(report.servers).toHaveLength(1);
    expect(report.servers[0]).toMatchObject({ status: 'ok', toolCount: 14, findings: [] });
  }, 60_000);

  it('starts with a clean lint line', async () => {
    const { stderr } = await runCli(['serve', '--example', 'workspace', '--stdio']);
    expect(stderr).toContain('candor lint: 0 errors, 0 warnings, 0 info');
  }, 60_000);
});
