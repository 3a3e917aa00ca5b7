/**
 * `candor serve` through the built binary: the banner a new user sees, the
 * bundled example with its demo root, modules of every accepted shape, stdio
 * for real clients, graceful shutdown on SIGINT/SIGTERM, and clear refusals.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, REPO, runCli, startServe } from '../support/cli-harness.js';

let dir: string;
const dist = (p: string) => JSON.stringify(path.join(REPO, 'dist', p));

beforeAll(() => {
  ensureBuilt();
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-cli-serve-')));
  const echo = `defineTool({ name: 'echo', description: 'Echo the text back.', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, effect: 'read', world: 'closed', tags: ['demo'], handler: ({ text }) => text })`;
  const header = `import { defineTool } from ${dist('src/tool/define.js')};\nimport { ToolRegistry } from ${dist('src/registry/registry.js')};\nimport { createServer } from ${dist('src/server/create-server.js')};\n`;
  writeFileSync(path.join(dir, 'array.mjs'), `${header}export default [${echo}];\n`);
  writeFileSync(
    path.join(dir, 'registry.mjs'),
    `${header}export const registry = new ToolRegistry();\nregistry.add(${echo});\n`,
  );
  writeFileSync(
    path.join(dir, 'server.mjs'),
    `${header}export const server = createServer({ name: 'echo-server', version: '2.0.0', tools: [${echo}] });\n`,
  );
  writeFileSync(
    path.join(dir, 'factory.mjs'),
    `${header}export default async ({ root }) => [defineTool({ name: 'where', description: 'Say the root.', effect: 'read', world: 'closed', handler: () => String(root) })];\n`,
  );
  writeFileSync(path.join(dir, 'nothing.mjs'), 'export const answer = 42;\n');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('candor serve --example workspace --http', () => {
  it('prints the endpoint, how to add it to three clients, and the tool table, and serves the demo root', async () => {
    const served = await startServe(['--example', 'workspace']);
    try {
      const out = served.stdout();
      const url = served.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(out).toMatch(/serving 14 tools from the workspace example \(root: .*examples\/workspace\/demo-root\)/);
      // "workspace" is reserved in Claude Code (`claude mcp add` refuses it).
      expect(out).toContain(`claude mcp add --transport http candor-workspace ${url}`);
      expect(out).toContain(`gemini mcp add --transport http candor-workspace ${url}`);
      expect(out).toContain(`code --add-mcp '{"name":"candor-workspace","type":"http","url":"${url}"}'`);
      expect(out).toContain(`{"mcpServers":{"candor-workspace":{"url":"${url}"}}}`);
      expect(out).not.toMatch(/ workspace http/);
      expect(out).toMatch(/NAME\s+TITLE\s+READ-ONLY\s+DESTRUCTIVE\s+IDEMPOTENT\s+OPEN-WORLD\s+TAGS\s+UI/);
      expect(out).toMatch(/\nread_file\s+Read File\s+yes\s+no\s+yes\s+no\s+files, read\s+—\n/);
      expect(out).toMatch(/\nrun_command\s+Run Command\s+no\s+yes\s+no\s+yes\s+shell\s+—\n/);
      const { code, stdout } = await runCli(['call', url, 'read_file', '--arg', 'path=src/greet.js']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/export function greet\(name\)/);
    } finally {
      expect(await served.stop('SIGINT')).toBe(0);
    }
    expect(served.stderr()).toMatch(/SIGINT received; finishing calls in flight/);
  });

  it('finishes a call in flight before exiting on SIGTERM', async () => {
    const served = await startServe(['--example', 'workspace', '--root', dir]);
    const marker = path.join(dir, 'call-started');
    // The command says when it runs, so the signal lands while the call is in flight.
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, ''); setTimeout(() => console.log('finished'), 1500)`;
    const call = runCli([
      'call',
      served.url,
      'run_command',
      JSON.stringify({ argv: [process.execPath, '-e', script] }),
      '--yes',
    ]);
    while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 25));
    const exit = served.stop('SIGTERM');
    const { code, stdout, stderr } = await call;
    expect(stdout, stderr).toMatch(/exit code 0[\s\S]*finished/);
    expect(code).toBe(0);
    expect(await exit).toBe(0);
    expect(served.stderr()).toMatch(/SIGTERM received; finishing calls in flight/);
  });
});

describe('candor serve --stdio', () => {
  it('serves a real SDK client that spawns it', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--example', 'workspace', '--root', dir, '--stdio'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('apply_patch');
    const result = (await client.callTool({ name: 'list_directory', arguments: {} })) as {
      content: Array<{ text: string }>;
    };
    expect(result.content[0]!.text).toMatch(/array\.mjs/);
    await client.close();
  });
});

describe('candor serve <module>', () => {
  it.each([
    ['an array of tools (default export)', 'array.mjs'],
    ['a ToolRegistry (named export)', 'registry.mjs'],
    ['a createServer result', 'server.mjs'],
  ])('serves %s', async (_what, file) => {
    const served = await startServe([path.join(dir, file)]);
    try {
      expect(served.stdout()).toMatch(/serving 1 tool from .* \(export (default|registry|server)\)/);
      expect(served.stdout()).toMatch(/\necho\s+Echo\s+yes\s+no\s+yes\s+no\s+demo\s+—\n/);
      const { code, stdout } = await runCli(['call', served.url, 'echo', '--arg', 'text=hi there']);
      expect(code).toBe(0);
      expect(stdout).toBe('hi there\n');
    } finally {
      await served.stop();
    }
  });

  it('calls a default-export factory with --root', async () => {
    const served = await startServe([path.join(dir, 'factory.mjs'), '--root', dir]);
    try {
      const { stdout } = await runCli(['call', served.url, 'where']);
      expect(stdout).toBe(`${dir}\n`);
    } finally {
      await served.stop();
    }
  });

  it('lets inspect and call load a module target in process', async () => {
    const inspect = await runCli(['inspect', path.join(dir, 'server.mjs')]);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toMatch(/^echo-server 2\.0\.0 · 1 tool · /);
    const call = await runCli(['call', path.join(dir, 'array.mjs'), 'echo', '{"text": "in process"}']);
    expect(call.stdout).toBe('in process\n');
  });
});

describe('candor serve refusals', () => {
  it('needs something to serve', async () => {
    const { code, stderr } = await runCli(['serve', '--http', '0']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/What should be served\? Pass a module .* or --example workspace/);
  });

  it('names the examples it has', async () => {
    const { code, stderr } = await runCli(['serve', '--example', 'kitchen-sink', '--http', '0']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/no example named "kitchen-sink"; available: workspace/);
  });

  it('refuses a root that does not exist', async () => {
    const { code, stderr } = await runCli([
      'serve',
      '--example',
      'workspace',
      '--root',
      path.join(dir, 'missing'),
      '--http',
      '0',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/The workspace root .*missing does not exist/);
  });

  it('refuses a module that exports nothing servable', async () => {
    const { code, stderr } = await runCli(['serve', path.join(dir, 'nothing.mjs'), '--http', '0']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/exports nothing candor can serve \(exports: answer\)/);
  });

  it('refuses a malformed --http address', async () => {
    const { code, stderr } = await runCli(['serve', '--example', 'workspace', '--http', 'localhost']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/expected \[host:\]port/);
  });

  it('says when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, stderr } = await runCli(['serve', '--example', 'workspace', '--http', `127.0.0.1:${port}`]);
      expect(code).toBe(1);
      expect(stderr).toMatch(
        new RegExp(`Cannot listen on 127\\.0\\.0\\.1:${port}: EADDRINUSE.*--http 0 for any free one`),
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
