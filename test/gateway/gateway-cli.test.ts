/**
 * `candor gateway` as a person runs it: the built CLI, its errors for
 * bad config files and arguments, `--print-config`, and the official MCP
 * Inspector CLI listing and calling tools through a gateway over HTTP.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { startGatewayProcess } from '../support/gateway-process.js';
import { inspector } from '../support/inspector-cli.js';

const require = createRequire(import.meta.url);
const memory = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const fixture = path.join(REPO, 'test/fixtures/gateway/upstream.mjs');
let dir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-gateway-cli-'));
});
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const full = path.join(dir, name);
  writeFileSync(full, text);
  return full;
}

/** Start `candor gateway … --http 127.0.0.1:0` and wait for its endpoint line. */
const startGateway = (args: string[]) =>
  startGatewayProcess(args, { cwd: dir, onSpawn: (child) => children.push(child) });

describe('bad input gets a clear error', () => {
  it('names the file, line and column of a JSON syntax error', async () => {
    const config = file('broken.json', '{\n  "servers": {\n    "memory": { "command": }\n  }\n}\n');
    const { code, stderr } = await runCli(['gateway', '--config', config, '--stdio']);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`${config}:3:`);
    expect(stderr).toContain('not valid JSON');
  });

  it('names the JSON path of a wrong value, an unknown key and an unknown server', async () => {
    const cases: Array<[string, string]> = [
      ['{"servers":{"m":{"command":"node","trust":"yes"}}}', 'servers.m.trust: must be "trusted" or "untrusted"'],
      ['{"servers":{"m":{"command":"node"}},"polcy":"plan"}', 'polcy: unknown key'],
      ['{"servers":{"m":{"command":"node"}},"policy":"careful"}', 'policy: unknown preset "careful"'],
      [
        '{"servers":{"m":{"command":"node"}},"rateLimits":{"servers":{"x":{"windowMs":1000,"max":1}}}}',
        'rateLimits.servers.x: no upstream named "x"',
      ],
      ['{"servers":{}}', 'servers: expected a non-empty object'],
      ['{"servers":{"a__b":{"command":"node"}}}', 'servers.a__b: server names'],
      ['{"gateway":{"servers":{"m":{"url":"ftp://x"}}}}', 'gateway.servers.m:'],
    ];
    for (const [text, message] of cases) {
      const config = file('candor.gateway.json', text);
      const { code, stderr } = await runCli(['gateway', '--config', config, '--stdio']);
      expect(code, text).not.toBe(0);
      expect(stderr, text).toContain(message);
    }
  });

  it('reports every mistake of a config in one run, with the key a misspelt one likely meant, and no --debug hint', async () => {
    const config = file(
      'candor.gateway.json',
      '{"polcy":"plan","servers":{"memory":{"comand":"npx"},"files":{"command":"node","trust":"yes"}},"timeoutMs":0}',
    );
    const { code, stderr } = await runCli(['gateway', '--config', config, '--stdio']);
    expect(code).toBe(1);
    expect(stderr.split('\n').slice(0, 5)).toEqual([
      `candor: ${config}: 4 problems:`,
      expect.stringMatching(/^ {2}polcy: unknown key; did you mean "policy"\? Expected one of /),
      '  servers.memory: neither "command" (stdio) nor "url" (HTTP) is set. Did you mean "command" (not "comand")?',
      '  servers.files.trust: must be "trusted" or "untrusted".',
      '  timeoutMs: must be a positive number.',
    ]);
    // A config mistake is the person's to fix: a stack trace would not help, so it is not offered.
    expect(stderr).not.toContain('--debug');
  });

  it('refuses bad arguments with usage errors', async () => {
    const bad = await runCli(['gateway', '--policy', 'careless', '--config', 'x.json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('careless');
    const empty = mkdtempSync(path.join(dir, 'empty-'));
    const none = await runCli(['gateway', '--stdio'], { cwd: empty });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Nothing to put the gateway in front of');
    const trust = await runCli(['gateway', '--trust', 'nope', '--stdio', '--', process.execPath, memory]);
    expect(trust.code).toBe(2);
    expect(trust.stderr).toContain('--trust nope: no upstream of that name; the upstreams are memory');
    const missing = await runCli(['gateway', '--config', path.join(dir, 'absent.json'), '--stdio']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('Gateway config not found');
  });
});

describe('over stdio', () => {
  it('answers a client on stdin and exits when the client closes it, stopping the upstreams', async () => {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const run = await runCli(['gateway', '--stdio', '--', process.execPath, memory], {
      input: `${init}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${list}\n`,
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const tools = lines.find((l) => l.id === 2).result.tools as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toContain('memory__read_graph');
    expect(run.stderr).toContain('serving over stdio');
  });
});

describe('--print-config', () => {
  it('prints a client entry that starts this very gateway', async () => {
    const config = file(
      'print.gateway.json',
      JSON.stringify({ servers: { memory: { command: process.execPath, args: [memory] } } }),
    );
    const claude = await runCli(['gateway', '--print-config', 'claude', '--config', config]);
    expect(claude.code).toBe(0);
    expect(claude.stdout.trim()).toBe(
      `claude mcp add candor-gateway -- ${process.execPath} ${CLI} gateway --stdio --config ${config}`,
    );
    const cursor = JSON.parse(
      (await runCli(['gateway', '--print-config', 'cursor', '--config', config])).stdout.split('\n(')[0]!,
    );
    expect(cursor.mcpServers['candor-gateway']).toEqual({
      command: process.execPath,
      args: [CLI, 'gateway', '--stdio', '--config', config],
    });
    const vscode = JSON.parse(
      (await runCli(['gateway', '--print-config', 'vscode', '--config', config])).stdout.split('\n(')[0]!,
    );
    expect(vscode.servers['candor-gateway']).toMatchObject({ type: 'stdio', command: process.execPath });
    const http = await runCli(['gateway', '--print-config', 'gemini', '--http', '4100', '--config', config]);
    expect(http.stdout.trim()).toBe('gemini mcp add --transport http candor-gateway http://127.0.0.1:4100/mcp');
  });
});

describe('the MCP Inspector CLI through the gateway', () => {
  it('lists honest tools and calls one the policy allows; a call that needs a person is refused with advice', async () => {
    const config = file(
      'inspector.gateway.json',
      JSON.stringify({
        servers: { notes: { command: process.execPath, args: [fixture] } },
        policy: { preset: 'default', rules: [{ decision: 'allow', tools: 'notes__read_notes' }] },
      }),
    );
    const { url, stdout } = await startGateway(['--config', config]);
    expect(stdout()).toContain('claude mcp add --transport http candor-gateway');
    const listed = await inspector([url, '--transport', 'http', '--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const tools = JSON.parse(listed.stdout).tools as Array<{ name: string; annotations: Record<string, unknown> }>;
    const write = tools.find((t) => t.name === 'notes__write_note')!;
    expect(write.annotations).toMatchObject({ readOnlyHint: false, title: 'Write Note' });
    const called = await inspector([
      url,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'notes__read_notes',
    ]);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout).isError).toBeFalsy();
    const refused = await inspector([
      url,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'notes__write_note',
      '--tool-arg',
      'text=hi',
    ]);
    expect(refused.code, refused.stderr).toBe(0);
    const result = JSON.parse(refused.stdout);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain('elicitation');
  });
});
