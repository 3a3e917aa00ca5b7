/**
 * The result guards through the built `candor gateway`: an SDK v1 upstream whose tools
 * return provider tokens, a private key, a JSON Web Token, a poisoned web page and
 * ordinary data; SDK v1 and v2 clients downstream (2025 and 2026-07-28 eras) over
 * Streamable HTTP; each action (redact, annotate, block, off), the defaults that follow
 * the hints and the server's trust, the audit lines, bad settings refused clearly, and the
 * trust-annotations extension's labels for clients that declared it (and only for them).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { type Call, downstreamClients, type CallResult as Result } from '../support/downstream-clients.js';
import { until } from '../support/until.js';

const fixture = path.join(REPO, 'test/fixtures/gateway/results-upstream.mjs');
let dir: string;
const children: ChildProcess[] = [];
const closers: Array<() => Promise<unknown>> = [];

const alnum = (n: number) =>
  [...randomBytes(n)].map((b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[b % 62]).join('');
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

// Fresh credentials each run, in the formats the providers issue.
const secrets = {
  github: `ghp_${alnum(36)}`,
  awsSecret: randomBytes(30).toString('base64'),
  slack: `xoxb-${randomBytes(6).readUIntBE(0, 6).toString().padStart(12, '1').slice(0, 12)}-${'2'.repeat(13)}-${alnum(24)}`,
  dsn: `postgres://deploy:${alnum(20)}@db.internal:5432/orders`,
  privateKey: generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey,
  jwt: `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'ada', exp: 1900000000 })}.${randomBytes(32).toString('base64url')}`,
  apiKey: randomBytes(24).toString('hex'),
};
// The parts of each secret that must never be seen (a private key's body, not its header line).
const secretValues = [
  secrets.github,
  secrets.awsSecret,
  secrets.slack,
  secrets.dsn.split(':')[2]!.split('@')[0]!,
  secrets.privateKey.split('\n')[5]!,
  secrets.jwt,
  secrets.apiKey,
];

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-result-guards-'));
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

let configs = 0;
/** A gateway config with the leaky upstream (plus any keys given), written to a file. */
function config(extra: Record<string, unknown> = {}, server: Record<string, unknown> = {}): string {
  const file = path.join(dir, `gateway-${++configs}.json`);
  const upstream = { command: process.execPath, args: [fixture], env: { RESULTS_SECRETS: JSON.stringify(secrets) } };
  // The tools are allowed by a rule, so every call runs and its result is what is checked.
  const policy = { rules: [{ decision: 'allow', tools: 'files__*' }] };
  writeFileSync(file, JSON.stringify({ servers: { files: { ...upstream, ...server } }, policy, ...extra }));
  return file;
}

/** Start the built `candor gateway … --http 127.0.0.1:0` and wait for its endpoint line. */
function startGateway(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'gateway', ...args, '--http', '127.0.0.1:0'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      const match = /MCP endpoint: (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`candor gateway exited (${code}):\n${stdout}\n${stderr}`)));
  });
}

/** The three downstream clients: SDK v1, SDK v2 on the 2025 era, SDK v2 pinned to 2026-07-28. */
const CLIENTS = downstreamClients(closers);

const textOf = (r: Result) => r.content.map((b) => b.text ?? '').join('\n');
const seen = (r: Result) => JSON.stringify(r);
const labels = (r: Result) => (r._meta?.['dev.candor/result-guard'] as { labels?: string[] } | undefined)?.labels;
const TRUST = 'io.modelcontextprotocol/trust-annotations';
const trustOf = (r: Result) => r._meta?.[TRUST] as Record<string, unknown> | undefined;

describe.each(CLIENTS)('through the built gateway with %s', (_label, connect) => {
  let call: Call;
  let audit: string;
  beforeAll(async () => {
    audit = path.join(dir, `audit-${randomBytes(4).toString('hex')}.jsonl`);
    call = await connect(await startGateway(['--config', config(), '--audit', audit]));
  });

  it('redacts every credential by default, in text and structured content, and labels the result sensitive', async () => {
    for (const tool of ['files__read_config', 'files__read_key', 'files__read_session']) {
      const result = await call(tool);
      for (const value of secretValues) expect(seen(result)).not.toContain(value);
      expect(textOf(result)).toContain('[redacted: secret]');
      expect(labels(result)).toEqual(['sensitive']);
    }
    const config = await call('files__read_config');
    expect(textOf(config)).toContain('region = "eu-west-1"');
    expect(config.structuredContent).toEqual({ region: 'eu-west-1', database: '[redacted: secret]' });
  });

  it('puts a note before a poisoned page from an open-world tool and labels it untrusted, keeping the page', async () => {
    const result = await call('files__fetch_page', { url: 'https://example.com/cake' });
    expect(result.content[0]!.text).toMatch(
      /^candor gateway: the result below of files__fetch_page contains text that tries to instruct you/,
    );
    expect(result.content[1]!.text).toContain('Ignore all previous instructions');
    expect(labels(result)).toEqual(['untrusted']);
  });

  it('passes an ordinary result unchanged', async () => {
    const result = await call('files__weather');
    expect(result.content).toEqual([
      { type: 'text', text: 'Sunny, 21°C, wind 12 km/h from the south-west. Build 4f3a9c1 at 2026-11-28T09:00Z.' },
    ]);
    expect(result._meta?.['dev.candor/result-guard']).toBeUndefined();
  });

  it('writes the kind, rule and action of each finding to the audit log, never the secret', async () => {
    await call('files__read_key');
    const lines = await until(
      () => (existsSync(audit) ? readFileSync(audit, 'utf8') : ''),
      (text) => text.includes('files__weather') && text.includes('privatekey'),
    );
    for (const value of secretValues) expect(lines).not.toContain(value);
    const entries = lines
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tool: string; results?: unknown });
    expect(entries.find((e) => e.tool === 'files__read_key')?.results).toEqual([
      { kind: 'secret', rule: '@secretlint/secretlint-rule-privatekey', action: 'redact' },
    ]);
    expect(entries.find((e) => e.tool === 'files__weather')?.results).toBeUndefined();
    // `candor audit --finding` picks the calls whose result had a finding of that kind.
    const query = await runCli(['audit', audit, '--finding', 'injection', '--json']);
    expect(query.code).toBe(0);
    const tools = new Set(
      query.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { tool: string }).tool),
    );
    expect([...tools]).toEqual(['files__fetch_page']);
  });

  it("gives a client that did not declare trust-annotations none of its labels, not even the server's own", async () => {
    for (const [tool, args] of [
      ['files__read_key'],
      ['files__fetch_page', { url: 'x' }],
      ['files__read_payroll'],
    ] as const)
      expect(trustOf(await call(tool, args))).toBeUndefined();
  });
});

describe.each(downstreamClients(closers, { extensions: { [TRUST]: {} } }))(
  'trust-annotations labels for %s that declared the extension',
  (_label, connect) => {
    let call: Call;
    let trusted: Call;
    let audit: string;
    beforeAll(async () => {
      audit = path.join(dir, `audit-${randomBytes(4).toString('hex')}.jsonl`);
      call = await connect(await startGateway(['--config', config(), '--audit', audit]));
      trusted = await connect(await startGateway(['--config', config(), '--trust', 'files']));
    });

    it("labels a redacted secret sensitive and an untrusted server's result untrusted, with a digest of the audit line", async () => {
      const result = await call('files__read_key');
      expect(trustOf(result)).toEqual({
        untrusted: true,
        sensitive: true,
        evidenceRef: {
          type: 'dev.candor/result-guard.v1',
          digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
          canonicalization: 'jcs/rfc8785',
        },
      });
      // Whoever holds the audit log can match the label to the call's line.
      const line = await until(
        () => (existsSync(audit) ? readFileSync(audit, 'utf8') : ''),
        (text) => text.includes('files__read_key'),
      );
      const entry = JSON.parse(
        line
          .trim()
          .split('\n')
          .find((l) => l.includes('files__read_key'))!,
      ) as Record<string, unknown>;
      const record = { server: entry.server, tool: entry.tool, results: entry.results ?? [] };
      const digest = createHash('sha256').update(canonicalize(record)!).digest('hex');
      expect((trustOf(result)!.evidenceRef as { digest: string }).digest).toBe(`sha256:${digest}`);
    });

    it("labels an open-world tool's page untrusted, whoever serves it, and claims nothing for a trusted closed-world tool", async () => {
      expect(trustOf(await trusted('files__fetch_page', { url: 'x' }))).toMatchObject({ untrusted: true });
      expect(trustOf(await trusted('files__fetch_page', { url: 'x' }))?.sensitive).toBeUndefined();
      const weather = await trusted('files__weather');
      expect(trustOf(weather)).toBeUndefined();
      expect(weather._meta?.['dev.candor/result-guard']).toBeUndefined();
    });

    it("keeps the upstream server's own label and never weakens it", async () => {
      expect(trustOf(await trusted('files__read_payroll'))).toMatchObject({ sensitive: true });
      expect(trustOf(await call('files__read_payroll'))).toMatchObject({ sensitive: true, untrusted: true });
    });

    it("puts no label on a withheld result: it holds only the gateway's words", async () => {
      const blocking = await connect(await startGateway(['--config', config(), '--results', 'secrets=block']));
      const withheld = await blocking('files__read_key');
      expect(withheld.isError).toBe(true);
      expect(trustOf(withheld)).toBeUndefined();
    });
  },
);

describe('settings from the config and the command line', () => {
  it('blocks per the server\'s "results" and --results: a tool error naming the kind, nothing of the result', async () => {
    const url = await startGateway([
      '--config',
      config({}, { results: { secrets: 'block' } }),
      '--results',
      'injection=block',
    ]);
    const call = await CLIENTS[1]![1](url);
    const secret = await call('files__read_session');
    expect(secret.isError).toBe(true);
    expect(textOf(secret)).toBe(
      'candor gateway: the result of files__read_session was withheld: it contains a secret. Nothing of it was passed on.',
    );
    const page = await call('files__fetch_page', { url: 'https://example.com/cake' });
    expect(page.isError).toBe(true);
    expect(textOf(page)).toContain('it contains injected instructions');
    expect(textOf(page)).not.toContain('Ignore all previous');
    expect((await call('files__weather')).isError).toBeFalsy();
  });

  it('passes everything verbatim with both kinds off', async () => {
    const url = await startGateway(['--config', config({ results: { secrets: 'off', injection: 'off' } })]);
    const call = await CLIENTS[0]![1](url);
    expect(textOf(await call('files__read_session'))).toContain(secrets.jwt);
    expect(textOf(await call('files__fetch_page', { url: 'x' }))).toMatch(/^<html>/);
  });

  it('leaves secrets in place but labels them when secrets are set to annotate', async () => {
    const url = await startGateway(['--config', config(), '--results', 'secrets=annotate']);
    const call = await CLIENTS[2]![1](url);
    const result = await call('files__read_session');
    expect(textOf(result)).toContain(secrets.apiKey);
    expect(labels(result)).toEqual(['sensitive']);
  });

  it('annotates injection in a closed-world tool of an untrusted server, but not once the server is trusted', async () => {
    const untrusted = await CLIENTS[1]![1](await startGateway(['--config', config()]));
    expect(textOf(await untrusted('files__read_note'))).toMatch(/^candor gateway: the result below/);
    const trusted = await CLIENTS[1]![1](await startGateway(['--config', config(), '--trust', 'files']));
    const note = await trusted('files__read_note');
    expect(textOf(note)).toMatch(/^Meeting moved to 3pm/);
    // A trusted server's closed-world tool still gets its secrets redacted.
    expect(textOf(await trusted('files__read_session'))).not.toContain(secrets.apiKey);
    // An open-world tool's result is outside input, whoever serves it.
    expect(textOf(await trusted('files__fetch_page', { url: 'x' }))).toMatch(/^candor gateway: the result below/);
  });

  it("lets a server's per-tool entries decide over its own settings, the most specific entry first", async () => {
    const results = {
      secrets: 'block',
      tools: {
        'read_*': { secrets: 'annotate' },
        read_key: { secrets: 'redact' },
        'files__fetch_*': { injection: 'off' },
      },
    };
    const call = await CLIENTS[2]![1](await startGateway(['--config', config({}, { results })]));
    // read_session: only "read_*" matches, so its secrets are left in place and labelled.
    const session = await call('files__read_session');
    expect(textOf(session)).toContain(secrets.apiKey);
    expect(labels(session)).toEqual(['sensitive']);
    // read_key: the exact name is more specific than "read_*".
    const key = await call('files__read_key');
    expect(textOf(key)).toContain('[redacted: secret]');
    expect(seen(key)).not.toContain(secrets.privateKey.split('\n')[5]);
    // fetch_page matches by its catalog name: injection off, the page verbatim.
    expect(textOf(await call('files__fetch_page', { url: 'x' }))).toMatch(/^<html>/);
    // weather matches no entry: the server's "block" applies (and it has nothing to block).
    expect((await call('files__weather')).isError).toBeFalsy();
  });

  it('advertises the trust-annotations extension in the capabilities the gateway answers initialize with', async () => {
    const url = await startGateway(['--config', config()]);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const body = await response.text();
    const json = body.startsWith('{') ? body : body.split('data: ')[1]!.split('\n')[0]!;
    const message = JSON.parse(json) as { result: { capabilities: { extensions?: Record<string, unknown> } } };
    expect(message.result.capabilities.extensions?.[TRUST]).toEqual({});
  });

  it('refuses a bad --results value and a bad "results" key with a clear message', async () => {
    const flag = await runCli(['gateway', '--config', config(), '--results', 'secrets=hide', '--stdio']);
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toContain(
      '--results: secrets must be one of "annotate", "redact", "block", "off" (got "hide")',
    );
    const file = config({}, { results: { secret: 'redact' } });
    const key = await runCli(['gateway', '--config', file, '--stdio']);
    expect(key.code).not.toBe(0);
    expect(key.stderr).toContain(
      'servers.files.results: unknown key "secret"; expected "secrets", "injection", "budgetMs" or "tools".',
    );
    const perTool = config({}, { results: { tools: { 'fetch_*': { injection: 'drop' } } } });
    const tool = await runCli(['gateway', '--config', perTool, '--stdio']);
    expect(tool.code).not.toBe(0);
    expect(tool.stderr).toContain(
      'servers.files.results.tools.fetch_*: injection must be one of "annotate", "block", "off" (got "drop").',
    );
  });
});
