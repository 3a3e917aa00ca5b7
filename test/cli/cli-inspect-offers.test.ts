/**
 * `candor inspect` shows what a server offers besides tools: its resources, resource
 * templates and prompts (with their arguments), in the text report and in `--json`.
 * Against the reference `everything` server (SDK v1) over stdio, and the workspace
 * example, which offers tools only (no empty sections).
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, runCli } from '../support/cli-harness.js';

const require = createRequire(import.meta.url);
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

beforeAll(() => ensureBuilt(), 120_000);

describe('candor inspect: resources and prompts', () => {
  it('prints the resources, resource templates and prompts after the tools', async () => {
    const { code, stdout, stderr } = await runCli(['inspect', '--', process.execPath, everything]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const resources = stdout.indexOf('\nResources (');
    const templates = stdout.indexOf('\nResource templates (');
    const prompts = stdout.indexOf('\nPrompts (');
    expect(stdout.indexOf('NAME ')).toBeLessThan(resources);
    expect(resources).toBeLessThan(templates);
    expect(templates).toBeLessThan(prompts);
    expect(stdout).toMatch(
      /^ {2}demo:\/\/resource\/static\/document\/architecture\.md +architecture\.md +text\/markdown /m,
    );
    expect(stdout).toMatch(
      /^ {2}demo:\/\/resource\/dynamic\/text\/\{resourceId\} +Dynamic Text Resource +text\/plain /m,
    );
    // Optional arguments carry a "?".
    expect(stdout).toMatch(/^ {2}args-prompt +city, state\? +A prompt with two arguments/m);
    expect(stdout).toMatch(/^ {2}simple-prompt +— +A prompt with no arguments$/m);
  }, 60_000);

  it('reports them in --json, each as the server sent it', async () => {
    const { code, stdout } = await runCli(['inspect', '--json', '--', process.execPath, everything]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      tools: unknown[];
      resources: Array<{ uri: string; name?: string; mimeType?: string }>;
      resourceTemplates: Array<{ uriTemplate: string }>;
      prompts: Array<{ name: string; arguments: Array<{ name: string; required: boolean }> }>;
    };
    expect(report.tools.length).toBeGreaterThan(0);
    expect(report.resources).toContainEqual(
      expect.objectContaining({
        uri: 'demo://resource/static/document/architecture.md',
        name: 'architecture.md',
        mimeType: 'text/markdown',
      }),
    );
    expect(report.resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    expect(report.prompts.find((p) => p.name === 'args-prompt')?.arguments).toEqual([
      expect.objectContaining({ name: 'city', required: true }),
      expect.objectContaining({ name: 'state', required: false }),
    ]);
  }, 60_000);

  it('adds no empty section for a server that offers tools only', async () => {
    const workspace = [process.execPath, CLI, 'serve', '--example', 'workspace', '--stdio'];
    const { code, stdout } = await runCli(['inspect', '--', ...workspace]);
    expect(code).toBe(0);
    expect(stdout).toContain('read_file');
    expect(stdout).not.toMatch(/Resources|Resource templates|Prompts/);
    const json = JSON.parse((await runCli(['inspect', '--json', '--', ...workspace])).stdout);
    expect([json.resources, json.resourceTemplates, json.prompts]).toEqual([[], [], []]);
  }, 60_000);
});
