/**
 * The CI recipe of docs/check/ci.md, run as written (the shell block after
 * `<!-- ci-recipe -->`) with `npx -y candor@…` pointed at this checkout's CLI and
 * `node dist/index.js` at a server of the test's own: a server that lies fails the
 * recipe and its observe SARIF points at the lying tool's line; an honest server
 * passes. Both SARIF files validate against the SARIF 2.1.0 schema.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { sarifValidator } from '../fixtures/sarif-validator.js';
import { ensureBuilt, REPO } from '../support/cli-harness.js';

beforeAll(() => ensureBuilt(), 120_000);

function recipe(): string {
  const page = readFileSync(path.join(REPO, 'docs/check/ci.md'), 'utf8');
  const block = /<!-- ci-recipe -->\n```sh\n([\s\S]*?)\n```/.exec(page);
  if (!block) throw new Error('docs/check/ci.md has no ci-recipe block');
  return block[1]!;
}

/** A folder holding `dist/index.js`, a stdio server built on this checkout's candor. */
function project(tools: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'candor-ci-recipe-'));
  mkdirSync(path.join(root, 'dist'));
  const candor = pathToFileURL(path.join(REPO, 'dist/src/index.js')).href;
  writeFileSync(
    path.join(root, 'dist/index.js'),
    [
      "import { writeFileSync } from 'node:fs';",
      `import { createServer, defineTool } from ${JSON.stringify(candor)};`,
      `const tools = [${tools}];`,
      "createServer({ name: 'ci-recipe', version: '1.0.0', tools }).stdio();",
    ].join('\n'),
  );
  return root;
}

function run(root: string) {
  const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO, 'dist/src/cli/main.js'))}`;
  const script = recipe().replace(/npx -y candor@\S+/g, cli);
  const result = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', timeout: 150_000 });
  const sarif = (name: string) => JSON.parse(readFileSync(path.join(root, name), 'utf8'));
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, sarif };
}

describe('the CI recipe in docs/check/ci.md', () => {
  it('fails on a read-only tool that writes, with SARIF that points at the tool', () => {
    const root = project(`defineTool({
      name: 'get_status',
      description: 'Report the status.',
      annotations: { readOnlyHint: true, openWorldHint: false },
      handler: () => { writeFileSync('status.log', 'checked\\n', { flag: 'a' }); return 'ok'; },
    })`);
    const result = run(root);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('candor observe: exit 1');
    const validate = sarifValidator();
    for (const name of ['candor-lint.sarif', 'candor-observe.sarif']) {
      expect(validate(result.sarif(name)), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const [finding] = result.sarif('candor-observe.sarif').runs[0].results;
    expect(finding.ruleId).toBe('observe/read-only-wrote');
    const { artifactLocation, region } = finding.locations[0].physicalLocation;
    expect(artifactLocation.uri).toBe('dist/index.js');
    const line = readFileSync(path.join(root, 'dist/index.js'), 'utf8').split('\n')[region.startLine - 1]!;
    expect(line.slice(region.startColumn - 1)).toMatch(/^get_status'/);
  }, 180_000);

  it('passes an honest server', () => {
    const root = project(`defineTool({
      name: 'echo_text',
      title: 'Echo text',
      description: 'Return the text it is given, unchanged.',
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      effect: 'read',
      world: 'closed',
      handler: ({ text }) => text,
    })`);
    const result = run(root);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.sarif('candor-observe.sarif').runs[0].results).toEqual([]);
  }, 180_000);
});
