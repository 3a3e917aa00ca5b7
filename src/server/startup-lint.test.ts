import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool } from '../tool/define.js';
import type { ServerLogger } from '../util/logger.js';
import { createServer } from './create-server.js';

function capture(): { logger: ServerLogger; warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    logger: { error: () => {}, info: () => {}, debug: () => {}, warn: (message) => warnings.push(message) },
  };
}

// Seed style, wrong on purpose: a deleting tool that says it is not destructive.
const wrongHints = defineTool({
  name: 'delete_everything',
  title: 'Delete everything',
  description: 'Deletes every record in the store.',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: () => 'gone',
});

describe('start-up lint', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = saved;
  });

  it('reports the findings of the served tools once', async () => {
    const { logger } = capture();
    const server = createServer({ name: 's', version: '1', tools: [wrongHints], logger });
    const lines = await server.startupLint();
    expect(lines[0]).toMatch(/^candor lint: 1 errors?/);
    expect(lines.some((l) => l.includes('delete_everything') && l.includes('[name-says-destructive]'))).toBe(true);
    expect(await server.startupLint()).toEqual([]);
  });

  it('prints through the logger when stdio() starts, never on stdout', async () => {
    const { logger, warnings } = capture();
    const server = createServer({
      name: 's',
      version: '1',
      tools: [wrongHints],
      logger,
      keepAliveOnStrayRejection: false,
    });
    const stdout = new PassThrough();
    let written = '';
    stdout.on('data', (d: Buffer) => {
      written += d.toString();
    });
    server.stdio({ stdin: new PassThrough(), stdout, handleSignals: false });
    await expect.poll(() => warnings.length).toBeGreaterThan(1);
    expect(warnings.join('\n')).toContain('[name-says-destructive]');
    expect(written).toBe('');
    await server.close();
  });

  it('stays quiet when lintOnStart is false or NODE_ENV is production', async () => {
    const off = createServer({
      name: 's',
      version: '1',
      tools: [wrongHints],
      logger: capture().logger,
      lintOnStart: false,
    });
    expect(await off.startupLint()).toEqual([]);
    process.env.NODE_ENV = 'production';
    const production = createServer({ name: 's', version: '1', tools: [wrongHints], logger: capture().logger });
    expect(await production.startupLint()).toEqual([]);
  });
});
