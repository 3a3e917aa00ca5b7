/**
 * `candor scan`'s text report names each finding's tool once: lint's messages start
 * with the tool's name (they stand alone in JSON and SARIF), so the line does not put
 * it in front a second time (`add_observations: add_observations: …`).
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const require = createRequire(import.meta.url);
const memory = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');

beforeAll(() => ensureBuilt(), 120_000);

describe('scan text report', () => {
  it("names a lint finding's tool once", async () => {
    const run = await runCli(['scan', '--', process.execPath, memory], { timeoutMs: 120_000 });
    const findings = run.stdout.split('\n').filter((line) => line.startsWith('info  lint/'));
    expect(findings).toContain(
      'info  lint/param-description-missing  add_observations: parameter "observations" has no description.',
    );
    for (const line of findings) expect(line).not.toMatch(/ ([\w.-]+): \1[:' ]/);
  }, 150_000);
});
