/**
 * Sandboxed stdio upstreams, with real bubblewrap: a probe server asks
 * for the real HOME's ~/.ssh/id_rsa, writes outside its write paths, connects to
 * loopback ports it is and is not allowed, reads the gateway's secrets from its
 * environment and starts a child that should die with it — sandboxed and, as the
 * control, unsandboxed. Through the gateway over HTTP and over stdio (the CLI).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type GatewayOptions, loadGatewayConfig } from '../../src/gateway/index.js';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';

const probe = path.join(REPO, 'test/fixtures/sandbox/probe-server.mjs');
const silent = { error() {}, warn() {}, info() {}, debug() {} };
const dir = mkdtempSync(path.join(tmpdir(), 'candor-gateway-sandbox-'));
const sshKey = path.join(homedir(), '.ssh', 'id_rsa');
const madeKey = !existsSync(sshKey);
const secret = `secret-${process.pid}-${Date.now()}`;
const cleanup: Array<() => unknown> = [];
let allowed: net.Server;
let denied: net.Server;
let allowedPort = 0;
let deniedPort = 0;

const listen = (greeting: string) =>
  new Promise<net.Server>((resolve) => {
    const server = net.createServer((socket) => socket.end(`${greeting}\n`));
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

beforeAll(async () => {
  ensureBuilt();
  if (madeKey) {
    mkdirSync(path.dirname(sshKey), { recursive: true, mode: 0o700 });
    writeFileSync(sshKey, 'not a real key, made by candor gateway-sandbox.test.ts\n', { mode: 0o600 });
  }
  allowed = await listen('hello from the allowed port');
  denied = await listen('hello from the denied port');
  allowedPort = (allowed.address() as net.AddressInfo).port;
  deniedPort = (denied.address() as net.AddressInfo).port;
  process.env.CANDOR_TEST_SECRET = secret;
  process.env.CANDOR_TEST_PASSED = 'passed-on-purpose';
});

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  allowed.close();
  denied.close();
  if (madeKey) rmSync(sshKey, { force: true });
  delete process.env.CANDOR_TEST_SECRET;
  delete process.env.CANDOR_TEST_PASSED;
  rmSync(dir, { recursive: true, force: true });
});

const text = (result: unknown) =>
  ((result as { content?: Array<{ text?: string }> }).content ?? []).map((b) => b.text ?? '').join('\n');

/** Processes whose command line holds `marker` (read-only: pgrep). */
function running(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function gone(marker: string, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (running(marker).length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return running(marker).length === 0;
}

function sandboxFor(writable: string) {
  return {
    network: [`127.0.0.1:${allowedPort}`],
    read: [],
    write: [writable],
    env: ['CANDOR_TEST_PASSED'],
  };
}

async function serve(options: GatewayOptions): Promise<{ gateway: Gateway; client: Client }> {
  const gateway = await createGateway({ logger: silent, policy: 'yolo', ...options });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  const client = new Client({ name: 'downstream', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  cleanup.push(
    () => gateway.close(),
    () => listener.close(),
    () => client.close(),
  );
  return { gateway, client };
}

/** Every probe the tests make, through one downstream client. */
async function probeAll(client: Client, server: string, writable: string) {
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    text(await client.callTool({ name: `${server}__${tool}`, arguments: args }));
  const outside = mkdtempSync(path.join(dir, 'outside-'));
  const repoFile = path.join(REPO, `.candor-sandbox-probe-${process.pid}`);
  const results = {
    sshKey: await call('read_file', { path: sshKey }),
    written: await call('write_file', { path: path.join(writable, 'allowed.txt') }),
    outsideTmp: await call('write_file', { path: path.join(outside, 'nope.txt') }),
    outsideRepo: await call('write_file', { path: repoFile }),
    allowedPort: await call('connect', { port: allowedPort }),
    deniedPort: await call('connect', { port: deniedPort }),
    environment: JSON.parse((await call('environment')).replace(/^ok: /, '')) as {
      env: Record<string, string>;
      cwd: string;
    },
    files: {
      allowed: existsSync(path.join(writable, 'allowed.txt')),
      outsideTmp: existsSync(path.join(outside, 'nope.txt')),
      outsideRepo: existsSync(repoFile),
    },
  };
  rmSync(repoFile, { force: true });
  return results;
}

describe('a sandboxed stdio upstream', () => {
  it('cannot read the real ~/.ssh/id_rsa, write outside its paths, reach a port not allowed or see secrets; the unsandboxed control can', async () => {
    const writable = mkdtempSync(path.join(dir, 'writable-'));
    const { gateway, client } = await serve({
      servers: {
        boxed: { command: process.execPath, args: [probe], sandbox: sandboxFor(writable) },
        open: { command: process.execPath, args: [probe], sandbox: false },
      },
      sandbox: true,
    });
    const boxed = await probeAll(client, 'boxed', writable);
    expect(boxed.sshKey).toBe('error: ENOENT');
    expect(boxed.written).toBe('ok: written');
    expect(boxed.files.allowed).toBe(true);
    expect(boxed.outsideTmp).toMatch(/^error: (ENOENT|EROFS)$/);
    expect(boxed.outsideRepo).toBe('error: EROFS');
    expect(boxed.files).toMatchObject({ outsideTmp: false, outsideRepo: false });
    expect(boxed.allowedPort).toBe('ok: hello from the allowed port');
    expect(boxed.deniedPort).toBe('error: ECONNREFUSED');
    expect(boxed.environment.env.CANDOR_TEST_SECRET).toBeUndefined();
    expect(boxed.environment.env.CANDOR_TEST_PASSED).toBe('passed-on-purpose');
    expect(boxed.environment.env.HOME).not.toBe(homedir());
    expect(JSON.stringify(boxed.environment)).not.toContain(secret);

    const open = await probeAll(client, 'open', mkdtempSync(path.join(dir, 'writable-')));
    expect(open.sshKey).toMatch(/^ok: /);
    expect(open.outsideTmp).toBe('ok: written');
    expect(open.deniedPort).toBe('ok: hello from the denied port');
    // (The SDK starts any stdio server with a short default environment, so the control does not see it either.)

    const status = JSON.parse(
      ((await client.readResource({ uri: 'candor://gateway/status' })).contents[0] as { text: string }).text,
    ) as { upstreams: Array<{ name: string; sandbox?: unknown }> };
    expect(status.upstreams.find((u) => u.name === 'boxed')?.sandbox).toMatchObject({
      network: [`127.0.0.1:${allowedPort}`],
      write: [writable],
      env: ['PATH', 'HOME', 'TMPDIR', 'CANDOR_TEST_PASSED'],
    });
    expect(status.upstreams.find((u) => u.name === 'open')?.sandbox).toBe(false);
    expect(gateway.status().find((u) => u.name === 'boxed')?.state).toBe('up');
  });

  it('reaches an allowed host by name only (localhost is mapped inside), and nothing with network: false', async () => {
    const { client } = await serve({
      servers: {
        named: {
          command: process.execPath,
          args: [probe],
          sandbox: { network: [`localhost:${allowedPort}`], read: [], write: [], env: [] },
        },
        offline: { command: process.execPath, args: [probe] },
      },
      sandbox: true,
    });
    const call = async (name: string, args: Record<string, unknown>) =>
      text(await client.callTool({ name, arguments: args }));
    expect(await call('named__connect', { host: 'localhost', port: allowedPort })).toBe(
      'ok: hello from the allowed port',
    );
    expect(await call('named__connect', { host: 'localhost', port: deniedPort })).toBe('error: ECONNREFUSED');
    expect(await call('offline__connect', { port: allowedPort })).toBe('error: ECONNREFUSED');
    expect(await call('offline__connect', { host: 'example.com', port: 80 })).toMatch(/^error: (EAI_AGAIN|ENOTFOUND)/);
  });

  it('listens for the allow-list in a Node server before it starts, and under the forwarder process for other programs', async () => {
    const network = { network: [`127.0.0.1:${allowedPort}`], read: [], write: [], env: [] };
    const env = { PROBE_CONNECT_AT_START: `127.0.0.1:${allowedPort}` };
    const inproc = `inproc${process.pid}`;
    const shell = `shell${process.pid}`;
    const { client } = await serve({
      servers: {
        [inproc]: { command: process.execPath, args: [probe], env, sandbox: network },
        // Started by a shell, the server is not recognised as a Node program: the forwarder process listens.
        [shell]: { command: '/bin/sh', args: ['-c', 'exec "$0" "$@"', process.execPath, probe], env, sandbox: network },
      },
    });
    const tools = await client.listTools();
    for (const server of [inproc, shell]) {
      expect(tools.tools.find((t) => t.name === `${server}__seen_at_start`)?.description).toContain(
        `connect 127.0.0.1:${allowedPort}: ok: hello from the allowed port`,
      );
      const call = async (port: number) =>
        text(await client.callTool({ name: `${server}__connect`, arguments: { port } }));
      expect(await call(allowedPort)).toBe('ok: hello from the allowed port');
      expect(await call(deniedPort)).toBe('error: ECONNREFUSED');
      const environment = text(await client.callTool({ name: `${server}__environment`, arguments: {} }));
      expect(environment).not.toContain('CANDOR_SANDBOX_FORWARD');
    }
    // The forwarder process (not bwrap, whose command line names it too).
    const forwarder = (server: string) =>
      running(`^${process.execPath} [^ ]*forwarder\\.js .*candor-sandbox-${server}-`);
    expect(forwarder(shell)).toHaveLength(1);
    expect(forwarder(inproc)).toHaveLength(0);
  });

  it('kills the processes the upstream started when the gateway closes it; the unsandboxed control leaks them', async () => {
    const boxedMarker = `4242.${process.pid}1`;
    const openMarker = `4242.${process.pid}2`;
    const gateway = await createGateway({
      logger: silent,
      policy: 'yolo',
      servers: {
        boxed: { command: process.execPath, args: [probe], sandbox: true },
        open: { command: process.execPath, args: [probe] },
      },
    });
    await gateway.host.call('boxed__start_child', { seconds: boxedMarker });
    const started = await gateway.host.call('open__start_child', { seconds: openMarker });
    expect(running(boxedMarker)).toHaveLength(1);
    await gateway.close();
    expect(await gone(boxedMarker)).toBe(true);
    const leaked = running(openMarker);
    expect(leaked).toHaveLength(1);
    expect(text(started.result)).toContain(leaked[0]);
    process.kill(Number(leaked[0]), 'SIGKILL');
  });

  it('runs an npx-style install from a hidden folder: the package folder is readable, the project around it is not', async () => {
    const project = mkdtempSync(path.join(dir, 'project-'));
    const modules = path.join(project, 'node_modules');
    mkdirSync(path.join(modules, 'probe-pkg'), { recursive: true });
    mkdirSync(path.join(modules, 'dep-x'), { recursive: true });
    mkdirSync(path.join(modules, '.bin'));
    writeFileSync(path.join(modules, 'dep-x', 'package.json'), '{"name":"dep-x","type":"module","main":"index.js"}');
    writeFileSync(path.join(modules, 'dep-x', 'index.js'), 'export const dep = "resolved";\n');
    writeFileSync(path.join(modules, 'probe-pkg', 'package.json'), '{"name":"probe-pkg","type":"module"}');
    writeFileSync(path.join(modules, 'probe-pkg', 'data.txt'), 'package data');
    writeFileSync(
      path.join(modules, 'probe-pkg', 'cli.js'),
      `#!/usr/bin/env node\nimport 'dep-x';\nimport ${JSON.stringify(probe)};\n`,
    );
    chmodSync(path.join(modules, 'probe-pkg', 'cli.js'), 0o755);
    symlinkSync('../probe-pkg/cli.js', path.join(modules, '.bin', 'probe-pkg'));
    writeFileSync(path.join(project, 'secret.txt'), 'project secret');
    const { client } = await serve({
      servers: {
        pkg: {
          command: path.join(modules, '.bin', 'probe-pkg'),
          args: [],
          // The stand-in package imports the probe and candor's dist from this checkout, which
          // the default sandbox hides when the checkout itself lives under /tmp (a CI clone).
          sandbox: { network: false, read: [REPO], write: [], env: [] },
        },
      },
      sandbox: true,
    });
    const call = async (file: string) =>
      text(await client.callTool({ name: 'pkg__read_file', arguments: { path: file } }));
    expect(await call(path.join(modules, 'probe-pkg', 'data.txt'))).toBe('ok: package data');
    expect(await call(path.join(project, 'secret.txt'))).toBe('error: ENOENT');
  });
});

describe('candor gateway --sandbox (the CLI, over stdio)', () => {
  it('serves sandboxed tools over stdio, and the upstream dies with a killed gateway', async () => {
    const writable = mkdtempSync(path.join(dir, 'writable-'));
    const config = path.join(dir, 'stdio.gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: { boxed: { command: process.execPath, args: [probe], sandbox: sandboxFor(writable) } },
        policy: 'yolo',
      }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'gateway', '--stdio', '--config', config],
      env: { ...(process.env as Record<string, string>), CANDOR_TEST_SECRET: secret },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'downstream', version: '1.0.0' });
    await client.connect(transport);
    cleanup.push(() => client.close());
    const boxed = await probeAll(client, 'boxed', writable);
    expect(boxed).toMatchObject({
      sshKey: 'error: ENOENT',
      written: 'ok: written',
      outsideRepo: 'error: EROFS',
      allowedPort: 'ok: hello from the allowed port',
      deniedPort: 'error: ECONNREFUSED',
    });
    expect(boxed.environment.env.CANDOR_TEST_SECRET).toBeUndefined();
    const marker = `4243.${process.pid}`;
    await client.callTool({ name: 'boxed__start_child', arguments: { seconds: marker } });
    expect(running(marker)).toHaveLength(1);
    process.kill(transport.pid!, 'SIGKILL');
    expect(await gone(marker)).toBe(true);
  });

  it('--print-config says which upstreams run sandboxed and how, and keeps --sandbox in the entry', async () => {
    const config = path.join(dir, 'print.gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: {
          boxed: {
            command: process.execPath,
            args: [probe],
            sandbox: { network: ['api.github.com:443'], env: ['GH_TOKEN'] },
          },
          plain: { command: process.execPath, args: [probe], sandbox: false },
          remote: { url: 'http://127.0.0.1:9/mcp' },
        },
      }),
    );
    const run = await runCli(['gateway', '--print-config', 'claude', '--sandbox', '--config', config]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(
      `claude mcp add candor-gateway -- ${process.execPath} ${CLI} gateway --stdio --config ${config} --sandbox`,
    );
    expect(run.stderr).toContain(
      'boxed runs sandboxed (network only to api.github.com:443; reads its package folder; env PATH, HOME, TMPDIR, GH_TOKEN)',
    );
    expect(run.stderr).toContain('plain runs unsandboxed');
    expect(run.stderr).toContain('remote is reached by URL');
  });

  it('refuses, in one line, to start an upstream that asks for a sandbox where bwrap is missing; the rest serve', async () => {
    const config = path.join(dir, 'nobwrap.gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        servers: {
          boxed: { command: process.execPath, args: [probe], sandbox: true },
          plain: { command: process.execPath, args: [probe] },
        },
      }),
    );
    const child: ChildProcess = spawn(process.execPath, [CLI, 'gateway', '--config', config, '--http', '127.0.0.1:0'], {
      env: { ...process.env, PATH: path.join(dir, 'empty-path') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanup.push(() => child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no endpoint line\n${stdout}\n${stderr}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk;
        if (stdout.includes('MCP endpoint:')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const refusal = stderr.split('\n').filter((line) => line.includes('boxed: not started'));
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toMatch(/it asks for a sandbox and this machine needs bwrap.*apt-get install bubblewrap/);
    expect(stdout).toMatch(/boxed \(down: .*not started/);
    expect(stdout).toMatch(/plain \(up, 5 tools/);
  });
});

describe('sandbox config mistakes', () => {
  const bad = async (sandbox: unknown) => {
    const file = path.join(dir, 'bad.gateway.json');
    writeFileSync(file, JSON.stringify({ servers: { fs: { command: 'node', args: ['x.js'], sandbox } } }));
    return loadGatewayConfig(file).then(
      () => 'accepted',
      (error: Error) => error.message,
    );
  };

  it('names the file, the JSON path and the reason', async () => {
    const file = path.join(dir, 'bad.gateway.json');
    expect(await bad({ network: false, mount: ['/x'] })).toBe(
      `${file}: servers.fs.sandbox.mount: unknown key; a sandbox has network, read, write, env.`,
    );
    expect(await bad({ read: ['data'] })).toBe(
      `${file}: servers.fs.sandbox.read[0]: "data" is relative; sandbox paths must be absolute (or start with ~/).`,
    );
    expect(await bad({ write: ['/tmp', '/no/such/folder'] })).toBe(
      `${file}: servers.fs.sandbox.write[1]: /no/such/folder does not exist; create it or leave it out.`,
    );
    expect(await bad({ network: ['10.0.0.5:80'] })).toMatch(
      /servers\.fs\.sandbox\.network\[0\]: 10\.0\.0\.5 is not a loopback address/,
    );
    expect(await bad({ network: ['github.com'] })).toMatch(/network\[0\]: expected "host:port"/);
    expect(await bad({ env: ['NOT-A-NAME'] })).toMatch(/sandbox\.env\[0\]: expected an environment variable name/);
    expect(await bad('yes')).toMatch(/servers\.fs\.sandbox: expected true, false or/);
    expect(await bad({ network: ['127.0.0.1:8080'], read: ['/etc'], write: [dir], env: ['GH_TOKEN'] })).toBe(
      'accepted',
    );
  });
});
