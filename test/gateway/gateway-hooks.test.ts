/**
 * Call hooks through the built `candor gateway`: the example hook service
 * (examples/hook-service/server.mjs) in front of the real server-filesystem from npm,
 * SDK v1 and v2 clients downstream (v2 also pinned to 2026-07-28) over Streamable HTTP.
 * The service allows a read,
 * denies a read of a credential file and a destructive call by someone not allowed to
 * write, and replaces a long result; a hook that never answers refuses the call when the
 * hooks fail closed and lets it through when they fail open; `--hooks` names them on the
 * command line (with or without a config, over its "hooks"); settings that would send
 * calls to a plain-http remote host are refused with a clear message.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { type Call, downstreamClients, type CallResult as Result } from '../support/downstream-clients.js';
import { waitFor } from '../support/until.js';

const require = createRequire(import.meta.url);
const filesystem = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const example = path.join(REPO, 'examples/hook-service/server.mjs');

let dir: string;
let files: string;
let service: string;
let hanging: string;
const hangingRequests: http.IncomingMessage[] = [];
const children: ChildProcess[] = [];
const closers: Array<() => Promise<unknown>> = [];
/** What each started process has written so far, stdout and stderr together, newest last. */
const outputs: Array<() => string> = [];

/** Start a process and resolve with the first match of `pattern` on its stdout. */
function startProcess(args: string[], pattern: RegExp, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    outputs.push(() => out);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const match = pattern.exec(out);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}):\n${out}`)));
  });
}

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-hooks-'));
  files = path.join(dir, 'files');
  mkdirSync(files);
  writeFileSync(path.join(files, 'notes.txt'), 'buy milk');
  writeFileSync(path.join(files, 'long.txt'), 'x'.repeat(500));
  service = await startProcess([example], /hook service: (http:\/\/\S+)/, {
    HOOK_PORT: '0',
    HOOK_WRITERS: 'ada',
    HOOK_MAX_RESULT_CHARS: '100',
  });
  // A hook that takes the request and never answers.
  const server = http.createServer((req) => {
    hangingRequests.push(req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hanging = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

let configs = 0;
function config(hooks: Record<string, unknown> | undefined, serverHooks?: Record<string, unknown>): string {
  const file = path.join(dir, `gateway-${++configs}.json`);
  const policy = { rules: [{ decision: 'allow', tools: 'files__*' }] };
  const servers = {
    files: { command: process.execPath, args: [filesystem, files], ...(serverHooks ? { hooks: serverHooks } : {}) },
  };
  const audit = path.join(dir, `audit-${configs}.jsonl`);
  writeFileSync(file, JSON.stringify({ servers, policy, audit, ...(hooks ? { hooks } : {}) }));
  return file;
}

const CLIENTS = downstreamClients(closers);

/** The audit lines of the gateway started from config number `n`. */
const auditLines = (n: number): Array<Record<string, unknown>> => {
  const file = path.join(dir, `audit-${n}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
};

const text = (result: Result) => result.content.map((b) => b.text ?? '').join('\n');
const gateway = (file: string) =>
  startProcess([CLI, 'gateway', '--config', file, '--http', '127.0.0.1:0'], /MCP endpoint: (http:\/\/\S+)/);

describe.each(CLIENTS)('call hooks through the built gateway, with %s', (_, connect) => {
  let call: Call;
  let n: number;
  beforeAll(async () => {
    const file = config({ beforeCall: `${service}/before`, afterCall: `${service}/after` });
    n = configs;
    call = await connect(await gateway(file));
  });

  it('lets an allowed call through with its result untouched', async () => {
    const result = await call('files__read_text_file', { path: path.join(files, 'notes.txt') });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('buy milk');
  });

  it('refuses a call the beforeCall hook denies, with the hook reason, without calling the server', async () => {
    const secret = path.join(files, '.ssh', 'id_rsa');
    const result = await call('files__read_text_file', { path: secret });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `candor gateway: files__read_text_file was refused by the beforeCall hook: the arguments name a credential file (${secret}).`,
    );
    await waitFor(
      () => auditLines(n).some((e) => e.decidedBy === 'hook:beforeCall'),
      'the audit line of the denied call',
    );
    expect(auditLines(n).find((e) => e.decidedBy === 'hook:beforeCall')).toMatchObject({
      tool: 'files__read_text_file',
      decision: 'deny',
      outcome: 'denied',
      hooks: { beforeCall: 'deny' },
    });
  });

  it('refuses a destructive call by a caller the hook does not let write', async () => {
    const target = path.join(files, 'new.txt');
    const result = await call('files__write_file', { path: target, content: 'hello' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'candor gateway: files__write_file was refused by the beforeCall hook: an anonymous caller may not make destructive calls (files__write_file).',
    );
    await expect(call('files__read_text_file', { path: target })).resolves.toMatchObject({ isError: true });
  });

  it('gives back the result the afterCall hook replaced', async () => {
    const result = await call('files__read_text_file', { path: path.join(files, 'long.txt') });
    expect(result.content).toEqual([
      { type: 'text', text: 'x'.repeat(100) },
      { type: 'text', text: '[hook service: result cut to 100 of 500 characters]' },
    ]);
    const replaced = (e: Record<string, unknown>) =>
      (e.hooks as { afterCall?: string } | undefined)?.afterCall === 'replace';
    await waitFor(() => auditLines(n).some(replaced), 'the audit line of the replaced result');
    expect(auditLines(n).find(replaced)).toMatchObject({
      decision: 'allow',
      outcome: 'ok',
      hooks: { beforeCall: 'allow' },
    });
  });
});

describe('a hook that never answers', () => {
  it('refuses the call when the hooks fail closed, naming the timeout', async () => {
    const [, connect] = CLIENTS[1]!;
    const call = await connect(await gateway(config({ beforeCall: `${hanging}/before`, timeoutMs: 300 })));
    const asked = hangingRequests.length;
    const result = await call('files__read_text_file', { path: path.join(files, 'notes.txt') });
    await waitFor(() => hangingRequests.length === asked + 1, 'the hanging hook to have been asked');
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'candor gateway: files__read_text_file was refused: the beforeCall hook failed (it did not answer within 300 ms) and the hooks fail closed.',
    );
  });

  it('lets the call and its result through when the hooks fail open', async () => {
    const [, connect] = CLIENTS[0]!;
    const call = await connect(
      await gateway(
        config({ beforeCall: `${hanging}/before`, afterCall: `${hanging}/after`, timeoutMs: 300, failure: 'open' }),
      ),
    );
    const asked = hangingRequests.length;
    const result = await call('files__read_text_file', { path: path.join(files, 'notes.txt') });
    await waitFor(() => hangingRequests.length === asked + 2, 'the hanging hook to have been asked');
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('buy milk');
    const log = outputs.at(-1)!;
    await waitFor(() => log().includes('the afterCall hook failed'), 'the fail-open warning');
    expect(log()).toContain(
      'the beforeCall hook failed for files__read_text_file (it did not answer within 300 ms); the call went on (hooks fail open).',
    );
  });
});

describe('hooks of one server', () => {
  it('asks the beforeCall hook in the server entry instead of the gateway one', async () => {
    const [, connect] = CLIENTS[1]!;
    const call = await connect(
      await gateway(
        config(
          { beforeCall: `${hanging}/before`, timeoutMs: 300, failure: 'open' },
          { beforeCall: `${service}/before` },
        ),
      ),
    );
    const secret = path.join(files, '.ssh', 'id_rsa');
    const result = await call('files__read_text_file', { path: secret });
    expect(text(result)).toBe(
      `candor gateway: files__read_text_file was refused by the beforeCall hook: the arguments name a credential file (${secret}).`,
    );
  });
});

describe('--hooks on the command line', () => {
  it('asks the hooks it names for a server named on the command line, without a config file', async () => {
    const [, connect] = CLIENTS[2]!;
    const url = await startProcess(
      [
        CLI,
        'gateway',
        '--hooks',
        `beforeCall=${service}/before,afterCall=${service}/after`,
        // Trusted, so its read-only hints let the reads run without a confirmation.
        '--trust',
        'files',
        '--http',
        '127.0.0.1:0',
        '--',
        process.execPath,
        filesystem,
        files,
      ],
      /MCP endpoint: (http:\/\/\S+)/,
    );
    const call = await connect(url);
    const secret = path.join(files, '.ssh', 'id_rsa');
    expect(text(await call('files__read_text_file', { path: secret }))).toBe(
      `candor gateway: files__read_text_file was refused by the beforeCall hook: the arguments name a credential file (${secret}).`,
    );
    expect(text(await call('files__read_text_file', { path: path.join(files, 'long.txt') }))).toContain(
      '[hook service: result cut to 100 of 500 characters]',
    );
    expect(text(await call('files__read_text_file', { path: path.join(files, 'notes.txt') }))).toBe('buy milk');
  });

  it("goes over the config's hooks key by key: its URL in place of the config's, the config's timeout kept", async () => {
    const [, connect] = CLIENTS[0]!;
    const file = config({ beforeCall: `${hanging}/before`, afterCall: `${hanging}/after`, timeoutMs: 300 });
    const url = await startProcess(
      [CLI, 'gateway', '--config', file, '--hooks', `beforeCall=${service}/before`, '--http', '127.0.0.1:0'],
      /MCP endpoint: (http:\/\/\S+)/,
    );
    const call = await connect(url);
    const asked = hangingRequests.length;
    const result = await call('files__read_text_file', { path: path.join(files, 'notes.txt') });
    // The example service allowed the call; the config's afterCall hook, which never answers, refused its result.
    await waitFor(() => hangingRequests.length === asked + 1, 'the hanging hook to have been asked');
    expect(text(result)).toBe(
      'candor gateway: the result of files__read_text_file was withheld: the afterCall hook failed (it did not answer within 300 ms) and the hooks fail closed.',
    );
  });

  it('refuses a malformed --hooks, an unknown key and plain http to a remote host, naming the flag', async () => {
    for (const [flag, message] of [
      [
        'beforeCall',
        '--hooks expects key=value pairs separated by commas, e.g. --hooks beforeCall=http://127.0.0.1:8787/before,failure=closed (got "beforeCall").',
      ],
      [
        'before=https://hooks.example.com',
        '--hooks: unknown key "before"; expected "beforeCall", "afterCall", "timeoutMs", "failure", "allowRemoteHttp".',
      ],
      [
        'afterCall=http://10.0.0.5/after',
        '--hooks: afterCall is plain http to 10.0.0.5; use https, a loopback address, or set "allowRemoteHttp": true.',
      ],
    ] as const) {
      const run = await runCli(['gateway', '--config', config(undefined), '--hooks', flag, '--http', '127.0.0.1:0']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });
});

describe('hook settings', () => {
  it('refuses plain http to a remote host, an unknown key and a bad failure mode, naming the JSON path', async () => {
    for (const [hooks, message] of [
      [
        { beforeCall: 'http://10.0.0.5/before' },
        'hooks: beforeCall is plain http to 10.0.0.5; use https, a loopback address, or set "allowRemoteHttp": true.',
      ],
      [
        { before: 'https://hooks.example.com' },
        'hooks: unknown key "before"; expected "beforeCall", "afterCall", "timeoutMs", "failure", "allowRemoteHttp".',
      ],
      [
        { afterCall: 'https://hooks.example.com/after', failure: 'maybe' },
        'hooks: failure must be "open" or "closed" (got "maybe").',
      ],
    ] as const) {
      const run = await runCli(['gateway', '--config', config(hooks), '--http', '127.0.0.1:0']);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(message);
    }
  });
});
