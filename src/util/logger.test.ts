import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createServer } from '../server/create-server.js';
import { defineTool } from '../tool/define.js';
import { logSettingsFrom, stderrLogger } from './logger.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

describe('stderrLogger', () => {
  test('json format writes one parseable object per line with the details at the top level', () => {
    const lines = captureStderr();
    stderrLogger({ format: 'json', name: 'svc' }).warn('slow call', { requestId: 7, session: 's-1' });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ level: 'warn', logger: 'svc', msg: 'slow call', requestId: 7, session: 's-1' });
    expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
  });

  test('CANDOR_LOG_FORMAT and CANDOR_LOG_LEVEL become logger settings where the environment is read', () => {
    const lines = captureStderr();
    const logger = stderrLogger(logSettingsFrom({ CANDOR_LOG_FORMAT: 'json', CANDOR_LOG_LEVEL: 'warn' }));
    logger.info('hidden');
    logger.error('shown');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['shown']);
    expect(logSettingsFrom({ CANDOR_LOG_LEVEL: 'loud', CANDOR_LOG_FORMAT: 'xml' })).toEqual({});
  });

  test('the logger itself reads no environment: createServer and the CLI pass it in', () => {
    vi.stubEnv('CANDOR_LOG_LEVEL', 'error');
    const lines = captureStderr();
    stderrLogger().info('still shown');
    expect(lines).toEqual(['candor info: still shown\n']);
  });

  test('a masked tool failure is logged with its request id, session id, tool and error over HTTP', async () => {
    const server = createServer({
      name: 'logs',
      version: '1.0.0',
      lintOnStart: false,
      logger: stderrLogger({ format: 'json' }),
      tools: [
        defineTool({
          name: 'explode',
          description: 'Fail with an unexpected error.',
          effect: 'read',
          world: 'closed',
          handler: () => {
            throw new Error('database password rejected');
          },
        }),
      ],
    });
    const listener = await server.listen({ port: 0, handleSignals: false });
    const client = new Client({ name: 'log-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(listener.url));
    await client.connect(transport);
    const lines = captureStderr();
    const result = await client.callTool({ name: 'explode', arguments: {} });
    vi.restoreAllMocks();
    await client.close();
    await server.close();
    // The model sees a masked message; the operator's log has the details and the ids to find the call.
    expect(JSON.stringify(result.content)).not.toContain('password');
    const entries = lines.map((line) => JSON.parse(line));
    const failure = entries.find((e) => e.msg === 'tool "explode" failed');
    expect(failure).toMatchObject({
      level: 'error',
      tool: 'explode',
      session: transport.sessionId,
      error: { name: 'Error', message: 'database password rejected' },
    });
    expect(failure.requestId).toEqual(expect.any(Number));
  });
});
