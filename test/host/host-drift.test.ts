/**
 * A server that changes under the host: a stdio fixture whose `delete_record`
 * claims to be read-only while it deletes, and later changes its annotations
 * (sending notifications/tools/list_changed). The host must still ask while
 * the server is untrusted, and pins must catch the change — live in the host
 * and in CI with `candor verify`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { registerPin } from '../../src/cli/commands/pin.js';
import { registerVerify } from '../../src/cli/commands/verify.js';
import { type ConfirmRequest, createHost, type Host, type HostOptions, parseLockfile } from '../../src/host/index.js';

const fixture = join(import.meta.dirname, '../fixtures/host/drifting-server.mjs');
const dir = mkdtempSync(join(tmpdir(), 'candor-host-drift-'));
const hosts: Host[] = [];

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function driftHost(options: Partial<HostOptions> & { trust?: 'trusted' | 'untrusted' } = {}): Promise<Host> {
  const { trust, ...rest } = options;
  const host = await createHost({
    servers: { drift: { command: process.execPath, args: [fixture], ...(trust ? { trust } : {}) } },
    ...rest,
  });
  hosts.push(host);
  return host;
}

/** Wait until the host has re-listed the server's tools. */
function nextChange(host: Host): Promise<void> {
  return new Promise((resolve) => {
    const off = host.on('tools-changed', () => {
      off();
      resolve();
    });
  });
}

function recordsOf(outcome: { result?: { structuredContent?: unknown } }): Record<string, string> {
  return (outcome.result!.structuredContent as { records: Record<string, string> }).records;
}

describe('a server that lies and drifts', () => {
  it('still asks before a write that an untrusted server marks read-only, and the record survives a denial', async () => {
    const asked: ConfirmRequest[] = [];
    const host = await driftHost({
      onConfirm: (request) => {
        asked.push(request);
        return request.tool === 'drift__delete_record' ? 'deny' : 'allow-once';
      },
    });
    expect(host.tool('drift__delete_record')!.hints.readOnlyHint).toBe(true);
    const outcomes = await host.run([
      { tool: 'drift__delete_record', args: { id: 'a' } },
      { tool: 'drift__list_records' },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['denied', 'ok']);
    expect(asked[0]).toMatchObject({ tool: 'drift__delete_record', trust: 'untrusted' });
    expect(asked[0]!.reason).toContain('not trusted');
    expect(recordsOf(outcomes[1]!)).toEqual({ a: 'alpha', b: 'beta' });
    // Untrusted "read-only" calls are not run side by side either.
    expect(outcomes.every((o) => !o.parallel)).toBe(true);
  });

  it('catches a tool whose annotations change after list_changed, blocks it, and runs it after re-approval', async () => {
    const host = await driftHost({
      trust: 'trusted',
      policy: 'yolo',
      pins: { lock: { lockfileVersion: 1, servers: {} } },
    });
    host.pins.pinServer('drift');
    expect(host.tool('drift__delete_record')!.pin.status).toBe('pinned');

    const changed = nextChange(host);
    expect((await host.call('drift__flip')).status).toBe('ok');
    await changed;

    const tool = host.tool('drift__delete_record')!;
    expect(tool.pin.status).toBe('changed');
    expect(tool.hints.readOnlyHint).toBe(false);
    expect(host.pins.report('drift')!.changed.map((c) => c.name)).toEqual(['delete_record']);
    const blocked = await host.call('drift__delete_record', { id: 'a' });
    expect(blocked.status).toBe('denied');
    expect(blocked.message).toContain('readOnlyHint true → false');
    expect(blocked.attempts).toBe(0);

    host.pins.approve('drift__delete_record');
    expect(host.tool('drift__delete_record')!.pin.status).toBe('pinned');
    expect((await host.call('drift__delete_record', { id: 'a' })).status).toBe('ok');
    expect(recordsOf(await host.call('drift__list_records'))).toEqual({ b: 'beta' });
  });

  it('asks about a changed tool in ask mode, and allow-always re-pins it', async () => {
    const asked: ConfirmRequest[] = [];
    const host = await driftHost({
      trust: 'trusted',
      pins: { lock: { lockfileVersion: 1, servers: {} }, onChange: 'ask' },
      policy: { rules: [{ decision: 'allow', tools: 'drift__*' }] },
      onConfirm: (request) => {
        asked.push(request);
        return 'allow-always' as const;
      },
    });
    host.pins.pinServer('drift');
    const changed = nextChange(host);
    await host.call('drift__flip');
    await changed;
    asked.length = 0;
    // Destructive now, so it asks anyway; the pin's reason comes first.
    expect((await host.call('drift__delete_record', { id: 'b' })).status).toBe('ok');
    expect(asked[0]!.reason).toContain('changed since it was pinned');
    expect(asked[0]!.pin.status).toBe('changed');
    expect(host.tool('drift__delete_record')!.pin.status).toBe('pinned');
    expect(host.pins.lock!.servers.drift!.tools.delete_record!.definition.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it('saves the lockfile and reads it back, reporting drift at start-up', async () => {
    const file = join(dir, 'host.lock.json');
    const first = await driftHost({ pins: { file } });
    first.pins.pinServer('drift');
    await first.pins.save();
    const lock = parseLockfile(JSON.parse(readFileSync(file, 'utf8')));
    expect(Object.keys(lock.servers.drift!.tools).sort()).toEqual(['delete_record', 'flip', 'list_records']);
    expect(lock.servers.drift!.tools.flip!.hash).toMatch(/^sha256:[0-9a-f]{64}$/);

    const second = await createHost({
      servers: { drift: { command: process.execPath, args: [fixture], env: { DRIFT_STAGE: '1' } } },
      pins: { file },
    });
    hosts.push(second);
    expect(second.tool('drift__delete_record')!.pin.status).toBe('changed');
    expect(second.tool('drift__list_records')!.pin.status).toBe('pinned');
  });
});

describe('candor pin and candor verify', () => {
  async function cli(argv: string[]): Promise<{ lines: string[]; error?: Error }> {
    const lines: string[] = [];
    const program = new Command('candor').exitOverride();
    registerPin(program, { out: (line) => lines.push(line) });
    registerVerify(program, { out: (line) => lines.push(line) });
    try {
      await program.parseAsync(['node', 'candor', ...argv]);
      return { lines };
    } catch (error) {
      return { lines, error: error as Error };
    }
  }

  it('writes the lockfile, passes verify on the same server, and fails verify on drift with field-by-field changes', async () => {
    const lock = join(dir, 'cli.lock.json');
    // A client config file entry: the server's environment picks the stage.
    const config = join(dir, 'mcp.json');
    const entry = (stage: string) => ({ command: process.execPath, args: [fixture], env: { DRIFT_STAGE: stage } });
    writeFileSync(config, JSON.stringify({ mcpServers: { drift: entry('0') } }));

    const pinned = await cli(['pin', '--lock', lock, `${config}#drift`]);
    expect(pinned.error).toBeUndefined();
    expect(pinned.lines[0]).toBe(`Pinned 3 tools of drift in ${lock}.`);

    const clean = await cli(['verify', '--lock', lock, `${config}#drift`]);
    expect(clean.error).toBeUndefined();
    expect(clean.lines).toEqual([`drift: 3 tools match ${lock}.`]);

    writeFileSync(config, JSON.stringify({ mcpServers: { drift: entry('1') } }));
    const drifted = await cli(['verify', '--lock', lock, `${config}#drift`]);
    expect(drifted.error?.message).toContain('drift drifted');
    expect((drifted.error as { exitCode?: number }).exitCode).toBe(1);
    expect(drifted.lines).toContain('drift: changed delete_record');
    expect(drifted.lines).toContain('    readOnlyHint true → false');
    expect(drifted.lines).toContain('    destructiveHint (absent) → true');
  });

  it('pins a command given after -- under its label, and verify finds it', async () => {
    const lock = join(dir, 'dash.lock.json');
    const pinned = await cli(['pin', '--lock', lock, '--name', 'd', '--', process.execPath, fixture]);
    expect(pinned.error).toBeUndefined();
    expect(Object.keys(parseLockfile(JSON.parse(readFileSync(lock, 'utf8'))).servers)).toEqual(['d']);
    const verified = await cli(['verify', '--lock', lock, '--name', 'd', '--', process.execPath, fixture]);
    expect(verified.error).toBeUndefined();
  });

  it('fails verify with a usage error when there is no lockfile', async () => {
    const result = await cli(['verify', '--lock', join(dir, 'missing.json'), '--', process.execPath, fixture]);
    expect(result.error?.message).toContain('candor pin');
    expect((result.error as { exitCode?: number }).exitCode).toBe(2);
  });
});
