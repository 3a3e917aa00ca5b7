/**
 * Per-person Cedar rules (issue 22) through the built CLI: `candor gateway
 * --rules docs/cedar/team.cedar --auth-issuer …` in front of the candor fixture
 * upstream (whose write_note lies that it is read-only), with real signed
 * tokens from the loopback authorization server for three people: no group,
 * `dev`, `admin`. Each sees the list its rules allow; a forbidden tool is
 * refused even when its name is guessed; `call_unconfirmed` skips the
 * confirmation; the rules see the *tightened* hints. A rules file that does not
 * validate stops the gateway with Cedar's message and the line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GatewayRules, principalOf } from '../src/gateway/rules.js';
import { defineTool } from '../src/tool/define.js';
import { CLI, ensureBuilt, REPO, runCli } from './cli-harness.js';
import { POST_HEADERS } from './http-support.js';
import { startAuthorizationServer, type TestAuthorizationServer } from './support/test-authorization-server.js';

const RESOURCE = 'http://gateway.test/mcp';
const fixture = path.join(REPO, 'test/fixtures/gateway/upstream.mjs');
const rulesFile = path.join(REPO, 'docs/cedar/team.cedar');
let as: TestAuthorizationServer;
let dir: string;
let url: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-gateway-rules-'));
  as = await startAuthorizationServer({ resource: RESOURCE });
  const config = path.join(dir, 'candor.gateway.json');
  writeFileSync(
    config,
    JSON.stringify({ servers: { notes: { command: process.execPath, args: [fixture] } }, policy: 'confirm-writes' }),
  );
  child = spawn(
    process.execPath,
    [CLI, 'gateway', '--config', config, '--rules', rulesFile, '--http', '127.0.0.1:0'].concat([
      '--auth-issuer',
      as.issuer,
      '--auth-resource',
      RESOURCE,
    ]),
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child!.stderr!.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    child!.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const match = /MCP endpoint: (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child!.on('exit', (code) => reject(new Error(`gateway exited ${code}\n${out}\n${err}`)));
  });
}, 60_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await as?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A 2026-07-28 request with a token (no session). */
async function modern(token: string, method: 'tools/list' | 'tools/call', name?: string, args: object = {}) {
  const params: Record<string, unknown> = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    },
  };
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    authorization: `Bearer ${token}`,
  };
  if (name !== undefined) {
    params.name = name;
    params.arguments = args;
    headers['mcp-name'] = name;
  }
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
}

const ALL = 'tools:read tools:write tools:destructive';
const token = (sub: string, groups: string[]) => as.mint({ sub, groups, scope: ALL });
const listed = async (t: string) =>
  ((await modern(t, 'tools/list')).result!.tools as Array<{ name: string }>).map((x) => x.name).sort();

describe('Cedar rules per person', () => {
  test('each principal sees the list its rules allow, judged on the tightened hints', async () => {
    const nobody = await listed(await token('nobody', []));
    const dev = await listed(await token('dana', ['dev']));
    const admin = await listed(await token('ada', ['admin']));
    // Everyone may read; write_note claims read-only but is tightened, so Cedar does not see it as read-only.
    expect(nobody).toContain('notes__read_notes');
    expect(nobody).not.toContain('notes__write_note');
    expect(nobody).not.toContain('notes__delete_notes');
    expect(dev).toContain('notes__read_notes');
    expect(dev).not.toContain('notes__delete_notes');
    expect(admin).toContain('notes__delete_notes');
    expect(admin).toContain('notes__write_note');
    expect(admin.length).toBeGreaterThan(dev.length);
    expect(dev.length).toBeGreaterThanOrEqual(nobody.length);
  });

  test('a forbidden call is refused even when the name is guessed', async () => {
    const answer = await modern(await token('nobody', []), 'tools/call', 'notes__delete_notes');
    expect(answer.error?.message).toMatch(
      /notes__delete_notes is not permitted to User::"nobody" by the gateway's rules/,
    );
  });

  test('call_unconfirmed skips the confirmation for admin; dev is asked for the same write', async () => {
    // flood is additive (not destructive): team.cedar lets admin call it unconfirmed, dev only with the policy's ask.
    const dev = await modern(await token('dana', ['dev']), 'tools/call', 'notes__flood');
    expect(dev.result?.resultType).toBe('input_required');
    const admin = await modern(await token('ada', ['admin']), 'tools/call', 'notes__flood');
    expect(admin.result?.resultType).toBe('complete');
    expect(admin.result?.isError).toBeFalsy();
  });
});

describe('rules files', () => {
  test("a rules file that does not validate stops the gateway with Cedar's message and the line", async () => {
    const bad = path.join(dir, 'bad.cedar');
    writeFileSync(bad, 'permit (principal, action, resource)\nwhen { resource.readonly };\n');
    const run = await runCli(
      ['gateway', '--config', path.join(dir, 'candor.gateway.json'), '--rules', bad, '--stdio'],
      {
        cwd: dir,
      },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      /bad\.cedar:2:8: for policy `policy0`, attribute `readonly` on entity type `Tool` not found/,
    );
  }, 60_000);

  test('the example rules validate, and one decision costs microseconds (measured)', async () => {
    const rules = await GatewayRules.load(path.join(REPO, 'docs/cedar/lockdown.cedar'));
    const team = await GatewayRules.load(rulesFile);
    const tools = Array.from({ length: 200 }, (_, i) =>
      defineTool({
        name: `s__t${i}`,
        description: 'x',
        effect: i % 3 === 0 ? 'read' : i % 3 === 1 ? 'additive' : 'destructive',
        world: 'closed',
        handler: () => 'ok',
      }),
    );
    const principal = principalOf({ subject: 'dana', scopes: ['tools:read'], claims: { groups: ['dev'] } } as never);
    expect(team.permits(principal, tools[0]!, 'call')).toBe(true);
    expect(team.permits(principal, tools[2]!, 'call')).toBe(false);
    expect(rules.permits(principal, tools[2]!, 'call')).toBe(true);
    // Uncached cost: a new principal for every decision.
    const started = performance.now();
    const n = 2000;
    for (let i = 0; i < n; i++) team.permits({ ...principal, id: `p${i}` }, tools[i % tools.length]!, 'call');
    const uncached = ((performance.now() - started) * 1000) / n;
    const again = performance.now();
    for (let i = 0; i < n; i++) team.permits(principal, tools[i % tools.length]!, 'call');
    const cached = ((performance.now() - again) * 1000) / n;
    console.log(`Cedar decision: ${uncached.toFixed(1)} µs uncached, ${cached.toFixed(2)} µs cached (per call)`);
  });
});
