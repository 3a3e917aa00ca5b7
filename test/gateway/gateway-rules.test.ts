/**
 * Per-person Cedar rules through the built CLI: `candor gateway
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
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { GatewayRules, principalOf } from '../../src/gateway/rules.js';
import { defineTool } from '../../src/tool/define.js';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { modernRequest, waitFor } from '../support/http-support.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../support/test-authorization-server.js';

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

/** A 2026-07-28 request with a token (no session), from a client that can answer elicitations. */
const modern = (token: string, method: 'tools/list' | 'tools/call', name?: string, args: object = {}) =>
  modernRequest(url, method, {
    token,
    capabilities: { elicitation: { form: {} } },
    ...(name === undefined ? {} : { name, args }),
  });

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

  test('the example rules validate, and people of one group share decisions (cost measured)', async () => {
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
    // A new person for every decision: team.cedar reads groups, not ids, so people of one group share decisions.
    const evaluations = team.evaluations;
    const started = performance.now();
    const n = 2000;
    for (let i = 0; i < n; i++) team.permits({ ...principal, id: `p${i}` }, tools[i % tools.length]!, 'call');
    const newPeople = ((performance.now() - started) * 1000) / n;
    expect(team.evaluations - evaluations).toBeLessThanOrEqual(3);
    const again = performance.now();
    for (let i = 0; i < n; i++) team.permits(principal, tools[i % tools.length]!, 'call');
    const cached = ((performance.now() - again) * 1000) / n;
    console.log(
      `Cedar decision: ${newPeople.toFixed(1)} µs for a new person each time, ${cached.toFixed(2)} µs repeated (per call; bench/rules.ts measures more)`,
    );
  });
});

describe('rules that change while the gateway runs', () => {
  test('a rewritten rules file holds at once: the list changes and clients hear list_changed; a broken one changes nothing', async () => {
    const file = path.join(dir, 'live.cedar');
    writeFileSync(file, 'permit (principal, action == Action::"call", resource) when { resource.readOnly };\n');
    const errors: string[] = [];
    const gateway = await createGateway({
      servers: { notes: { command: process.execPath, args: [fixture], stderr: 'ignore' } },
      policy: 'yolo',
      rules: file,
      logger: { error: (message: string) => void errors.push(message), warn() {}, info() {}, debug() {} },
    });
    const listener = await gateway.listen({ port: 0, handleSignals: false });
    let changes = 0;
    const client = new Client({ name: 'rules-live', version: '1.0.0' });
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes++;
    });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      const names = async () => (await client.listTools()).tools.map((t) => t.name).sort();
      const before = await names();
      expect(before).toContain('notes__read_notes');
      expect(before).not.toContain('notes__delete_notes');
      // Now everything but deleting is allowed for everyone.
      writeFileSync(
        file,
        'permit (principal, action == Action::"call", resource);\nforbid (principal, action, resource) when { resource.destructive };\n',
      );
      await waitFor(() => changes >= 1, 'list_changed after the rules changed');
      const after = await names();
      expect(after).toContain('notes__flood');
      expect(after).not.toContain('notes__delete_notes');
      const ran = await client.callTool({ name: 'notes__flood', arguments: { times: 0 } });
      expect(ran.isError).toBeFalsy();
      // A file that does not validate: the rules in force stay.
      writeFileSync(file, 'permit (principal, action, resource) when { resource.nope };\n');
      // The gateway read the broken file and said so; the rules in force stay.
      await expect.poll(() => errors.join('\n'), { timeout: 10_000 }).toContain('The rules in force stay');
      expect(await names()).toEqual(after);
    } finally {
      await client.close().catch(() => {});
      await listener.close();
      await gateway.close();
    }
  }, 60_000);
});
