/**
 * What a double adds to observe's sandbox, in the real bwrap: a loopback
 * destination outside reached at the same address inside (through the bridge
 * and the forwarder), a host name that resolves to loopback inside, and a
 * listener inside led to a Unix socket outside.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { prepareSandbox, type Sandbox } from '../../src/observe/sandbox.js';
import { ensureBuilt } from '../support/cli-harness.js';

let dir: string;
const servers: net.Server[] = [];

/** A server that greets each connection with `text` and closes. */
async function greeter(text: string, listen: number | string): Promise<net.Server> {
  const server = net.createServer((socket) => socket.end(text));
  await new Promise<void>((resolve) =>
    typeof listen === 'string' ? server.listen(listen, resolve) : server.listen(listen, '127.0.0.1', resolve),
  );
  servers.push(server);
  return server;
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-observe-net-'));
  mkdirSync(path.join(dir, 'work'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

/** Run the sandbox's command and return what the program inside printed. */
function run(sandbox: Sandbox): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(sandbox.command, sandbox.args, { timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

it('reaches a loopback destination, a host name and a Unix socket from inside the sandbox', async () => {
  const tcp = await greeter('from tcp', 0);
  const port = (tcp.address() as net.AddressInfo).port;
  const socket = path.join(dir, 'double', 'double.sock');
  mkdirSync(path.dirname(socket));
  await greeter('from socket', socket);
  const script = `
    const net = require('node:net');
    const read = (host, port) => new Promise((resolve) => {
      let text = '';
      net.connect({ host, port }).on('data', (d) => (text += d)).on('close', () => resolve(text)).on('error', (e) => resolve(e.code));
    });
    (async () => console.log(JSON.stringify([await read('api.example.test', ${port}), await read('127.0.0.1', 5432)])))();
  `;
  const sandbox = await prepareSandbox({
    command: process.execPath,
    args: ['-e', script],
    workdir: path.join(dir, 'work'),
    services: {
      destinations: [{ host: '127.0.0.1', port }],
      hosts: ['api.example.test'],
      forwards: [{ host: '127.0.0.1', port: 5432, socket }],
    },
  });
  try {
    expect(JSON.parse(await run(sandbox))).toEqual(['from tcp', 'from socket']);
  } finally {
    await sandbox.dispose();
  }
}, 90_000);
