/**
 * The result guards on every channel and encoding, through the built `candor gateway`
 * over Streamable HTTP, with a hostile upstream on the official SDK v1 server
 * (test/fixtures/gateway/hostile-upstream.mjs) and the SDK v1 and v2 clients downstream:
 * one fresh credential, leaked in each placement of a result and each encoding, in an
 * error message, a log and a progress notification, a resource and a prompt; none of its
 * pieces reaches the client. And a 1 MiB result made to stall a guard, called alongside
 * an ordinary call: both are answered, the hostile one withheld or checked.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, REPO } from '../support/cli-harness.js';

const fixture = path.join(REPO, 'test/fixtures/gateway/hostile-upstream.mjs');
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Digits at every fourth place, so each piece of the token (and a wrapped line's rest) holds one.
const token = `ghp_${[...randomBytes(36)].map((b, i) => (i % 4 === 3 ? String(b % 10) : ALNUM[b % 62])).join('')}`;
const password = `Pw${randomBytes(12).toString('hex')}`;
const INVISIBLE = /[\u200B\u00AD]/g;

/** Whether any 8-character piece of the secret is in what the client got (invisible characters ignored). */
function leaks(seen: unknown, secret: string): string | undefined {
  const json = JSON.stringify(seen)
    .replace(INVISIBLE, '')
    .replace(/\\u00ad|\\u200b/gi, '');
  for (let at = 0; at + 8 <= secret.length; at += 4)
    if (json.includes(secret.slice(at, at + 8))) return secret.slice(at, at + 8);
  for (const encoded of [Buffer.from(secret).toString('hex'), Buffer.from(secret).toString('base64').slice(4, 30)])
    if (json.includes(encoded)) return encoded;
  return undefined;
}

let dir: string;
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-guard-channels-'));
  const config = path.join(dir, 'gateway.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        hostile: {
          command: process.execPath,
          args: [fixture],
          env: { HOSTILE_TOKEN: token, HOSTILE_PASSWORD: password },
        },
      },
      policy: { rules: [{ decision: 'allow', tools: 'hostile__*' }] },
    }),
  );
  child = spawn(process.execPath, [CLI, 'gateway', '--config', config, '--http', '127.0.0.1:0'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /MCP endpoint: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`gateway exited (${code}): ${out}\n${err}`)));
  });
}, 240_000);

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const CASES = [
  'split-blocks',
  'resource-text',
  'resource-blob',
  'resource-link',
  'result-meta',
  'block-meta',
  'structured-key',
  'deep-nesting',
  'json-unicode-escape',
  'escaped-slash',
  'double-encoded-json',
  'base64-env',
  'hex',
  'zero-width',
  'soft-hyphen',
  'wrapped-line',
];

type AnyClient = {
  callTool: (
    p: { name: string; arguments?: Record<string, unknown> },
    schema?: undefined,
    o?: Record<string, unknown>,
  ) => Promise<unknown>;
  readResource: (p: { uri: string }) => Promise<unknown>;
  getPrompt: (p: { name: string }) => Promise<unknown>;
  setNotificationHandler: (...args: never[]) => void;
  close: () => Promise<void>;
};

describe.each([
  [
    'SDK v1 client',
    async () => {
      const client = new ClientV1({ name: 't', version: '1' });
      await client.connect(new TransportV1(new URL(url)));
      return client as unknown as AnyClient;
    },
  ],
  [
    'SDK v2 client',
    async () => {
      const client = new ClientV2({ name: 't', version: '1' });
      await client.connect(new TransportV2(new URL(url)));
      return client as unknown as AnyClient;
    },
  ],
] as const)('a hostile upstream through the gateway, with the %s', (_label, connect) => {
  let client: AnyClient;
  beforeAll(async () => {
    client = await connect();
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it.each(CASES)('redacts the token leaked as %s', async (how) => {
    const result = await client.callTool({ name: 'hostile__leak', arguments: { how } });
    const secret = how === 'escaped-slash' ? password : token;
    expect(leaks(result, secret), JSON.stringify(result).slice(0, 400)).toBeUndefined();
  });

  it('redacts the token in an upstream error message', async () => {
    const result = await client.callTool({ name: 'hostile__fail', arguments: {} });
    expect(JSON.stringify(result)).toMatch(/failed|redacted/);
    expect(leaks(result, token)).toBeUndefined();
  });

  it('redacts the token in log and progress notifications', async () => {
    const seen: unknown[] = [];
    const handler = (notification: unknown) => {
      seen.push(notification);
    };
    const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    if (_label === 'SDK v1 client')
      (client.setNotificationHandler as (s: unknown, h: unknown) => void)(LoggingMessageNotificationSchema, handler);
    else (client.setNotificationHandler as (m: string, h: unknown) => void)('notifications/message', handler);
    const result = await client.callTool({ name: 'hostile__chatty', arguments: {} }, undefined, {
      onprogress: handler,
    });
    expect(JSON.stringify(result)).toContain('done');
    // The notifications came, with the token redacted in them.
    expect(JSON.stringify(seen)).toContain('[redacted: secret]');
    expect(leaks(seen, token)).toBeUndefined();
  });

  it('redacts the token in a resource read and labels the injected instructions, and in a prompt', async () => {
    const read = await client.readResource({ uri: 'notes://leak' });
    expect(leaks(read, token)).toBeUndefined();
    expect(JSON.stringify(read)).toContain('untrusted');
    const prompt = await client.getPrompt({ name: 'hostile__deploy' });
    expect(leaks(prompt, token)).toBeUndefined();
    expect(JSON.stringify(prompt)).toContain('[redacted: secret]');
  });

  it('answers an ordinary call while a hostile megabyte is guarded, and withholds or checks the megabyte', async () => {
    const [hostile, ordinary] = await Promise.all([
      client.callTool({ name: 'hostile__stall', arguments: {} }),
      client.callTool({ name: 'hostile__ping', arguments: {} }),
    ]);
    expect(JSON.stringify(ordinary)).toContain('pong');
    const shown = JSON.stringify(hostile);
    expect(shown.includes('withheld') || shown.length > 1_000_000).toBe(true);
  });
});
