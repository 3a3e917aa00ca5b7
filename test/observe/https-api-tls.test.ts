/**
 * The HTTPS API double's TLS is real TLS: its certificate verifies only against the run's
 * CA and only for the API's names, and a program that is not Node (Python's urllib)
 * trusts it inside bwrap through the system bundle the double mounts over, and only
 * through it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsApiDouble } from '../../src/observe/doubles/https-api.js';
import type { StartedDouble } from '../../src/observe/doubles/types.js';
import { prepareServerSandbox } from '../../src/sandbox/index.js';
import { until } from '../support/until.js';

const HOST = 'api.example-saas.test';

/** The outcome of a TLS handshake with the double: `ok`, or the error's code. */
function handshake(port: number, options: tls.ConnectionOptions): Promise<string> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ...options }, () => {
      socket.end();
      resolve('ok');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Run a Python one-liner in the sandbox with the double's plan pieces (some left out); its stdout. */
async function pythonInSandbox(api: StartedDouble, leaveOut: { mounts?: boolean; env?: string[] }): Promise<string> {
  const script = [
    'import urllib.request, ssl',
    'try:',
    `  print(urllib.request.urlopen("https://${HOST}/v1/projects", timeout=20).read().decode())`,
    'except Exception as error:',
    '  print("failed:", getattr(error, "reason", error))',
  ].join('\n');
  const env = Object.fromEntries(Object.entries(api.env).filter(([name]) => !leaveOut.env?.includes(name)));
  const sandbox = await prepareServerSandbox({
    name: 'python-tls',
    command: '/usr/bin/python3',
    args: ['-c', script],
    env,
    spec: { network: false, read: [], write: [], env: [] },
    routes: api.routes ?? [],
    mounts: leaveOut.mounts ? [] : api.mounts,
  });
  try {
    const child = spawn(sandbox.command, sandbox.args, { env: sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    await new Promise((resolve) => child.once('close', resolve));
    return out.trim() || `stderr: ${err}`;
  } finally {
    await sandbox.dispose();
  }
}

describe('the HTTPS API double’s TLS', () => {
  let api: StartedDouble;
  let dir: string;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'candor-https-tls-'));
    api = await startHttpsApiDouble({ dir, hosts: [HOST, 'uploads.example-saas.test'] });
    port = api.routes![0]!.target.port;
  });

  afterAll(async () => {
    await api?.stop();
  });

  it('verifies against the run’s CA for every API name, and against nothing else', async () => {
    const ca = await readFile(api.env.NODE_EXTRA_CA_CERTS!);
    expect(await handshake(port, { servername: HOST, ca })).toBe('ok');
    expect(await handshake(port, { servername: 'uploads.example-saas.test', ca })).toBe('ok');
    expect(await handshake(port, { servername: HOST })).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(await handshake(port, { servername: 'evil.example.test', ca })).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('keeps no CA key once the leaf is signed, and routes every name to the double on 443', () => {
    expect(existsSync(path.join(dir, 'tls', 'ca.key'))).toBe(false);
    expect(api.routes).toEqual([
      { host: HOST, port: 443, target: { host: '127.0.0.1', port } },
      { host: 'uploads.example-saas.test', port: 443, target: { host: '127.0.0.1', port } },
    ]);
  });

  it('is trusted by Python inside bwrap through the system bundle mounted over, not otherwise', async () => {
    const trusting = await pythonInSandbox(api, { env: ['SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE'] });
    expect(trusting).toMatch(/^\[/);
    expect(JSON.parse(trusting)).toMatchObject([{ id: 1 }, { id: 2 }]);
    const untrusting = await pythonInSandbox(api, {
      mounts: true,
      env: ['SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE'],
    });
    expect(untrusting).toMatch(/^failed: \[SSL: CERTIFICATE_VERIFY_FAILED\]/);
  }, 60_000);

  it('refuses names a certificate cannot carry', async () => {
    const bad = await mkdtemp(path.join(tmpdir(), 'candor-https-bad-'));
    await expect(startHttpsApiDouble({ dir: bad, hosts: ['api example.com'] })).rejects.toMatchObject({
      code: 'observe_double_failed',
    });
    await expect(startHttpsApiDouble({ dir: bad, hosts: [] })).rejects.toMatchObject({ code: 'observe_double_failed' });
  });

  it('removes its folder on stop, and stops twice without complaint', async () => {
    const other = await startHttpsApiDouble({
      dir: await mkdtemp(path.join(tmpdir(), 'candor-https-stop-')),
      hosts: [HOST],
    });
    const folder = path.dirname(path.dirname(other.env.NODE_EXTRA_CA_CERTS!));
    await other.stop();
    await other.stop();
    expect(existsSync(folder)).toBe(false);
  });
});

describe('the HTTPS API double under bad input', () => {
  it('records an oversized, malformed body as doubtful and keeps serving', async () => {
    const api = await startHttpsApiDouble({
      dir: await mkdtemp(path.join(tmpdir(), 'candor-https-bad-input-')),
      hosts: [HOST],
    });
    try {
      const port = api.routes![0]!.target.port;
      const ca = await readFile(api.env.NODE_EXTRA_CA_CERTS!);
      const send = (method: string, urlPath: string, body: string) =>
        new Promise<number>((resolve, reject) => {
          const request = https.request(
            {
              host: '127.0.0.1',
              port,
              servername: HOST,
              headers: { host: HOST, 'content-type': 'application/json' },
              ca,
              method,
              path: urlPath,
            },
            (response) => {
              response.resume();
              response.once('end', () => resolve(response.statusCode ?? 0));
            },
          );
          request.once('error', reject);
          request.end(body);
        });
      await api.witness.mark();
      expect(await send('POST', '/v1/items/search', `{"filter":"${'x'.repeat(3 * 1024 * 1024)}`)).toBe(200);
      expect(await send('POST', '/graphql', '{"query": "{ unclosed"')).toBe(200);
      expect(await send('GET', '/v1/items', '')).toBe(200);
      expect(await api.witness.changes()).toEqual([
        { kind: 'request', method: 'POST', host: HOST, path: '/v1/items/search', read: 'ambiguous' },
        { kind: 'request', method: 'POST', host: HOST, path: '/graphql', read: 'ambiguous' },
        { kind: 'request', method: 'GET', host: HOST, path: '/v1/items', read: true },
      ]);
      // A body that never finishes: the request still counts for this call, judged by its head.
      await api.witness.mark();
      const stalled = https.request({
        host: '127.0.0.1',
        port,
        servername: HOST,
        headers: { host: HOST, 'content-type': 'application/json', 'content-length': '1000' },
        ca,
        method: 'POST',
        path: '/v1/items/search',
        agent: false,
      });
      stalled.on('error', () => {});
      stalled.write('{"filter":');
      const changes = await until(
        () => api.witness.changes(),
        (c) => c.length > 0,
      );
      stalled.destroy();
      expect(changes).toEqual([
        { kind: 'request', method: 'POST', host: HOST, path: '/v1/items/search', read: 'ambiguous' },
      ]);
    } finally {
      await api.stop();
    }
  });
});

describe('a sandbox with a double’s routes', () => {
  it('says which destinations are open, never "no network"', async () => {
    const api = await startHttpsApiDouble({
      dir: await mkdtemp(path.join(tmpdir(), 'candor-https-summary-')),
      hosts: [HOST],
    });
    const sandbox = await prepareServerSandbox({
      name: 'summary',
      command: '/bin/true',
      args: [],
      spec: { network: false, read: [], write: [], env: [] },
      routes: api.routes ?? [],
    });
    try {
      expect(sandbox.summary.network).toEqual([`${HOST}:443`]);
    } finally {
      await sandbox.dispose();
      await api.stop();
    }
  });
});
