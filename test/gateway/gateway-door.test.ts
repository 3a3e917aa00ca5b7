/**
 * Quarantine and the scan at the door, end to end: the real CLI pins,
 * a gateway with a lockfile offers nothing of a server the lock does not know, picks
 * up `candor pin` while it runs, and never offers a poisoned tool (hidden
 * characters, "ignore previous instructions", a read_file shadowing another
 * server's) unless a person accepted that rule for that tool.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type GatewayOptions, loadGatewayConfig } from '../../src/gateway/index.js';
import { pinTools, writeLockfile } from '../../src/host/index.js';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { until } from '../support/until.js';

const server = path.join(REPO, 'test/fixtures/sandbox/door-server.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'candor-gateway-door-'));
const cleanup: Array<() => Promise<unknown>> = [];
const entry = (kind: string) => ({ command: process.execPath, args: [server], env: { DOOR_SERVER: kind } });

beforeAll(() => ensureBuilt());
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

async function serve(options: GatewayOptions) {
  const lines: string[] = [];
  const logger = { error() {}, warn: (line: string) => lines.push(line), info() {}, debug() {} };
  const gateway = await createGateway({ logger, policy: 'yolo', ...options });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  const client = new Client({ name: 'downstream', version: '1.0.0' });
  let changed = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    changed += 1;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  cleanup.push(
    () => gateway.close(),
    () => listener.close(),
    () => client.close(),
  );
  const names = async () => (await client.listTools()).tools.map((t) => t.name).sort();
  const status = async () =>
    JSON.parse(
      ((await client.readResource({ uri: 'candor://gateway/status' })).contents[0] as { text: string }).text,
    ) as {
      upstreams: Array<{
        name: string;
        quarantined?: string;
        blocked?: Array<{ tool: string; findings: Array<{ ruleId: string }> }>;
      }>;
    };
  return { gateway, client, names, status, lines, changed: () => changed };
}

describe('quarantine with --lock', () => {
  it('offers nothing of unpinned servers, the clean one after candor pin, never the poisoned one without --accept', async () => {
    const lock = path.join(dir, 'quarantine.lock.json');
    const config = path.join(dir, 'quarantine.gateway.json');
    writeFileSync(config, JSON.stringify({ servers: { notes: entry('clean'), shady: entry('poisoned') } }));
    const options = await loadGatewayConfig(config);
    const gw = await serve({ ...options, lock: { file: lock } });
    expect(await gw.names()).toEqual([]);
    const review = `candor pin --config ${config} --server notes --lock ${lock}`;
    expect(gw.lines).toContain(`notes: quarantined: review with \`${review}\``);
    const before = await gw.status();
    expect(before.upstreams.find((u) => u.name === 'notes')).toMatchObject({
      state: 'up',
      quarantined: `quarantined: review with \`${review}\``,
    });

    const pinned = await runCli(['pin', '--config', config, '--server', 'notes', '--lock', lock]);
    expect(pinned.code).toBe(0);
    expect(pinned.stdout).toContain(`Pinned 2 tools of notes in ${lock}.`);
    expect(await until(gw.names, (n) => n.length > 0)).toEqual(['notes__list_notes', 'notes__read_file']);
    expect(gw.changed()).toBeGreaterThan(0);
    expect((await gw.status()).upstreams.find((u) => u.name === 'notes')?.quarantined).toBeUndefined();
    // The quarantined server's findings are there to review, shadowing of the approved notes included.
    const shadyBefore = (await gw.status()).upstreams.find((u) => u.name === 'shady');
    expect(shadyBefore?.blocked?.map((b) => b.tool)).toEqual(['lookup', 'read_file', 'weather']);

    const refused = await runCli(['pin', '--config', config, '--server', 'shady', '--lock', lock]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('Did not pin shady: the scan at the door found what a model must not see.');
    expect(refused.stdout).toMatch(
      /lookup: error description-steering: lookup: description contains an instruction override/,
    );
    expect(refused.stdout).toMatch(
      /weather: error hidden-unicode: weather: description contains 5 invisible characters/,
    );
    expect(refused.stdout).toMatch(
      /read_file: error name-shadows-tool: read_file has the same name as a tool of notes\./,
    );
    expect(refused.stderr).toContain(
      'Not pinned: shady (description-steering, hidden-unicode, name-shadows-tool). Read the findings; if the tools are what you want, pin with --accept description-steering --accept hidden-unicode --accept name-shadows-tool.',
    );
    expect(JSON.parse(readFileSync(lock, 'utf8')).servers.shady).toBeUndefined();
    const partly = await runCli([
      'pin',
      '--config',
      config,
      '--server',
      'shady',
      '--lock',
      lock,
      '--accept',
      'hidden-unicode',
    ]);
    expect(partly.code).toBe(1);
    expect(await gw.names()).toEqual(['notes__list_notes', 'notes__read_file']);

    const accepted = await runCli([
      'pin',
      '--config',
      config,
      '--server',
      'shady',
      '--lock',
      lock,
      '--accept',
      'description-steering',
      '--accept',
      'hidden-unicode',
      '--accept',
      'name-shadows-tool',
    ]);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/lookup: accepted description-steering/);
    expect(JSON.parse(readFileSync(lock, 'utf8')).servers.shady.tools.lookup.accepted).toEqual([
      'description-steering',
    ]);
    expect(await until(gw.names, (n) => n.length > 2)).toEqual([
      'notes__list_notes',
      'notes__read_file',
      'shady__helper',
      'shady__lookup',
      'shady__read_file',
      'shady__weather',
    ]);
  });

  it('rejects --accept of a rule the door does not run', async () => {
    const run = await runCli([
      'pin',
      '--lock',
      path.join(dir, 'x.lock.json'),
      '--accept',
      'hints-missing',
      '--',
      'true',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--accept hints-missing: not a rule of the scan at the door');
  });
});

describe('the scan at the door', () => {
  it('keeps poisoned tools out without a lock, and an override accepts one finding for one tool', async () => {
    const overrides = path.join(dir, 'overrides.json');
    writeFileSync(
      overrides,
      JSON.stringify({ servers: { shady: { tools: { weather: { accept: ['hidden-unicode'] } } } } }),
    );
    const gw = await serve({ servers: { notes: entry('clean'), shady: entry('poisoned') }, overrides });
    // Without a lock nothing is approved, so names are not judged (two filesystem servers may share them).
    expect(await gw.names()).toEqual([
      'notes__list_notes',
      'notes__read_file',
      'shady__helper',
      'shady__read_file',
      'shady__weather',
    ]);
    const shady = (await gw.status()).upstreams.find((u) => u.name === 'shady');
    expect(shady?.blocked?.map((b) => [b.tool, [...new Set(b.findings.map((f) => f.ruleId))]])).toEqual([
      ['lookup', ['description-steering']],
    ]);
    expect(gw.lines.some((line) => line.startsWith('shady: lookup is kept out: description-steering:'))).toBe(true);
    // The override only accepts; it does not vouch for the hints (weather stays untrusted).
    const weather = (await gw.client.listTools()).tools.find((t) => t.name === 'shady__weather');
    expect((weather?._meta?.['dev.candor/gateway'] as { trust?: string } | undefined)?.trust).toBe('untrusted');
  });

  it('keeps a poisoned tool out even when it was pinned without the scan', async () => {
    const lock = path.join(dir, 'old.lock.json');
    const { listTargetTools } = await import('../../src/cli/commands/pin.js');
    const config = path.join(dir, 'old.gateway.json');
    writeFileSync(config, JSON.stringify({ servers: { shady: entry('poisoned') } }));
    const [listed] = await listTargetTools({ targets: [], command: [] }, { config, server: 'shady' });
    await writeLockfile(lock, { lockfileVersion: 1, servers: { shady: pinTools(listed!.tools) } });
    const gw = await serve({ servers: { shady: entry('poisoned') }, lock: { file: lock } });
    expect(await gw.names()).toEqual(['shady__helper', 'shady__read_file']);
    expect((await gw.status()).upstreams[0]?.blocked?.map((b) => b.tool)).toEqual(['lookup', 'weather']);
  });
});
