/**
 * Linting a client config file with five servers, one of which fails to start: every
 * server is reported, the failing one as failed, and the exit code is non-zero.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLint } from '../../src/cli/commands/lint.js';
import { startPagedServer } from '../fixtures/paged-http-server.js';

const require = createRequire(import.meta.url);
const bin = (pkg: string) => require.resolve(`@modelcontextprotocol/${pkg}/dist/index.js`);

function sink(isTTY = false) {
  const chunks: string[] = [];
  return {
    isTTY,
    write(chunk: string) {
      chunks.push(chunk);
      return true;
    },
    get text() {
      return chunks.join('');
    },
  };
}

describe('candor lint on a config file with five servers', () => {
  let server: Awaited<ReturnType<typeof startPagedServer>>;
  let dir: string;
  beforeAll(async () => {
    server = await startPagedServer();
    dir = await mkdtemp(path.join(tmpdir(), 'candor-lint-five-'));
    const config = {
      mcpServers: {
        filesystem: { command: process.execPath, args: [bin('server-filesystem'), dir] },
        memory: {
          command: process.execPath,
          args: [bin('server-memory')],
          env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
        },
        everything: { command: process.execPath, args: [bin('server-everything'), 'stdio'] },
        paged: { type: 'http', url: server.url },
        broken: {
          command: process.execPath,
          args: ['-e', 'console.error("Error: GITHUB_TOKEN is required"); process.exit(1)'],
        },
      },
    };
    await writeFile(path.join(dir, 'claude_desktop_config.json'), JSON.stringify(config, null, 2));
  });
  afterAll(async () => {
    await server.close();
  });

  it('reports all five, the failing one as failed with its stderr, and exits 1', async () => {
    const stdout = sink();
    const stderr = sink();
    const code = await runLint(
      { targets: [], config: path.join(dir, 'claude_desktop_config.json'), format: 'json', concurrency: 2, cwd: dir },
      { stdout, stderr },
    );
    expect(code).toBe(1);
    const doc = JSON.parse(stdout.text);
    expect(doc.servers.map((s: { server: string; status: string }) => `${s.server}:${s.status}`)).toEqual([
      'filesystem:ok',
      'memory:ok',
      'everything:ok',
      'paged:ok',
      'broken:failed',
    ]);
    const broken = doc.servers[4];
    expect(broken.errorCode).toBe('target_exited');
    expect(broken.error).toContain('GITHUB_TOKEN is required');
    expect(doc.summary.failedServers).toBe(1);
    expect(doc.servers[3].errorCount).toBeGreaterThan(0);
    // Not a TTY: no progress display on stderr.
    expect(stderr.text).toBe('');
  });

  it('shows progress on a TTY stderr and lists the failed server in the pretty report', async () => {
    const stdout = sink();
    const stderr = sink(true);
    const code = await runLint(
      { targets: [path.join(dir, 'claude_desktop_config.json')], concurrency: 5, cwd: dir },
      { stdout, stderr, env: {} },
    );
    expect(code).toBe(1);
    expect(stderr.text).toMatch(/linting \d\/5 servers/);
    expect(stderr.text).toContain('linting 5/5 servers');
    expect(stdout.text).toContain('broken  ✖ failed to start');
    expect(stdout.text).toContain('(1 failed to start)');
    for (const name of ['filesystem', 'memory', 'everything', 'paged']) expect(stdout.text).toContain(`${name}  `);
    expect(stdout.text).not.toContain('\u001b['); // stdout is not a TTY: no colour
  });

  it('lints one server of the file with --server', async () => {
    const stdout = sink();
    const code = await runLint(
      { targets: [], config: path.join(dir, 'claude_desktop_config.json'), server: 'memory', format: 'json', cwd: dir },
      { stdout, stderr: sink() },
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout.text).servers.map((s: { server: string }) => s.server)).toEqual(['memory']);
  });
});
