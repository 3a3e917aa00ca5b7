import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTarget } from '../../src/targets/connect.js';
import { listAllResources, listAllTools } from '../../src/targets/list.js';
import type { StdioTarget } from '../../src/targets/types.js';
import { PAGED_TOOLS, startPagedServer } from '../fixtures/paged-http-server.js';

const require = createRequire(import.meta.url);
const memoryServer = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const node = (args: string[], label = 'test'): StdioTarget => ({
  kind: 'stdio',
  command: process.execPath,
  args,
  label,
});

describe('connectTarget over stdio', () => {
  it('connects to a real npm server and lists all its tools', async () => {
    const conn = await connectTarget(node([memoryServer], 'memory'), { timeoutMs: 20_000 });
    try {
      const tools = (await listAllTools(conn.client)) as Array<{ name: string }>;
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['create_entities', 'delete_entities', 'read_graph', 'search_nodes']),
      );
      expect(conn.client.getServerVersion()?.name).toBeTruthy();
    } finally {
      await conn.close();
      await conn.close(); // twice is fine
    }
  });

  it('reports a server that exits early with its last stderr lines', async () => {
    const script = 'console.error("starting"); console.error("fatal: DATABASE_URL is not set"); process.exit(3)';
    const error = await connectTarget(node(['-e', script], 'db'), { timeoutMs: 20_000 }).catch((e) => e);
    expect(error.code).toBe('target_exited');
    expect(error.message).toContain('db: the server exited');
    expect(error.message).toContain('fatal: DATABASE_URL is not set');
  });

  it('reports a command that does not exist', async () => {
    const error = await connectTarget({ kind: 'stdio', command: 'candor-no-such-command', args: [], label: 'x' }).catch(
      (e) => e,
    );
    expect(error.code).toBe('target_not_found');
    expect(error.message).toContain('command not found: candor-no-such-command');
  });

  it('times out on a process that never answers the handshake', async () => {
    const error = await connectTarget(node(['-e', 'setInterval(() => {}, 1000)'], 'silent'), { timeoutMs: 300 }).catch(
      (e) => e,
    );
    expect(error.code).toBe('target_timeout');
    expect(error.message).toContain('no answer to the MCP handshake within 300 ms');
  });

  it('refuses an invalid target with its reason', async () => {
    await expect(connectTarget({ kind: 'invalid', label: 'x', reason: 'x: no command' })).rejects.toThrow(
      'x: no command',
    );
  });

  it('reports a module that cannot be imported', async () => {
    const error = await connectTarget({ kind: 'module', label: 'm.ts', path: '/nonexistent/m.ts' }).catch((e) => e);
    expect(error.message).toContain('m.ts: importing the module failed');
  });
});

describe('connectTarget for a module', () => {
  it('serves an exported createServer result in process to an SDK client', async () => {
    const target = {
      kind: 'module' as const,
      label: 'srv',
      path: path.join(import.meta.dirname, '../fixtures/lint-module-server.ts'),
    };
    const conn = await connectTarget(target);
    try {
      const tools = (await listAllTools(conn.client)) as Array<{ name: string }>;
      expect(tools.map((t) => t.name)).toEqual(['show_bar_chart', 'show_pie_chart']);
      const result = await conn.client.callTool({ name: 'show_bar_chart', arguments: { values: [1, 2] } });
      expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    } finally {
      await conn.close();
    }
  });

  it('builds a server around an exported array of tools', async () => {
    const target = {
      kind: 'module' as const,
      label: 'tools',
      path: path.join(import.meta.dirname, '../fixtures/lint-module-tools.ts'),
    };
    const conn = await connectTarget(target);
    try {
      const tools = (await listAllTools(conn.client)) as Array<{ name: string }>;
      expect(tools.map((t) => t.name)).toEqual(['purge_notes', 'read_note']);
    } finally {
      await conn.close();
    }
  });

  it('reports a module that exports nothing usable', async () => {
    const target = {
      kind: 'module' as const,
      label: 'v',
      path: path.join(import.meta.dirname, '../fixtures/sarif-validator.ts'),
    };
    await expect(connectTarget(target)).rejects.toThrow('exports no ToolRegistry, array of tools, or server');
  });
});

describe('connectTarget over Streamable HTTP', () => {
  let server: Awaited<ReturnType<typeof startPagedServer>>;
  beforeAll(async () => {
    server = await startPagedServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('follows nextCursor through every page and keeps malformed entries as sent', async () => {
    const conn = await connectTarget({ kind: 'http', url: server.url, transport: 'streamable-http', label: 'paged' });
    try {
      const before = server.listCalls();
      const tools = await listAllTools(conn.client);
      expect(tools).toEqual(PAGED_TOOLS);
      expect(server.listCalls() - before).toBe(3); // 5 tools, 2 per page
      const { resources } = await listAllResources(conn.client);
      expect(resources.map((r) => r.uri)).toEqual(['ui://charts/present']);
      // Why lint lists raw: the SDK's own listTools rejects the whole page for one bad hint.
      await expect(conn.client.listTools()).rejects.toThrow('Invalid result for tools/list');
    } finally {
      await conn.close();
    }
  });

  it('reports an unreachable URL', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    const error = await connectTarget(
      { kind: 'http', url, transport: 'streamable-http', label: 'gone' },
      { timeoutMs: 10_000 },
    ).catch((e) => e);
    expect(error.code).toBe('target_unreachable');
    expect(error.message).toContain(url);
  });
});
