/**
 * `candor observe` against bad input: a server that floods stdout,
 * forks a daemon, has a schema no generator can satisfy, and resolves a name
 * while claiming a closed world — observed to the end in the real sandbox
 * (bubblewrap + strace), and nothing it started outlives the run.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ObserveReport, observe } from '../../src/observe/index.js';
import { ensureBuilt } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/unruly.mjs');
const marker = `candor-observe-daemon-${process.pid}-${Date.now()}`;
let workdir: string;
let report: ObserveReport;

/** Processes on this machine whose command line holds `text`. */
function processesWith(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

beforeAll(async () => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-unruly-'));
  writeFileSync(path.join(workdir, 'readme.txt'), 'hello');
  report = await observe({
    command: process.execPath,
    args: [fixture],
    env: { OBSERVE_DAEMON_MARKER: marker },
    workdir,
    timeoutMs: 20_000,
  });
}, 120_000);

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const tool = (name: string) => report.tools.find((t) => t.name === name)!;

describe('candor observe on an unruly server', () => {
  it('survives 8 MiB of junk on stdout and keeps observing', () => {
    expect(tool('flood').notExercised).toBeUndefined();
    expect(tool('flood').calls.every((c) => c.ok)).toBe(true);
    expect(tool('echo').notExercised).toBeUndefined();
    expect(tool('echo').findings).toEqual([]);
    expect(report.killed).toBe(false);
  });

  it('sees the daemon start, and kills it with the sandbox', () => {
    const daemon = tool('start_daemon');
    expect(daemon.calls[0]!.effects.some((e) => e.kind === 'exec')).toBe(true);
    expect(processesWith(marker)).toEqual([]);
  });

  it('reports a schema it cannot satisfy as not exercised, and makes no call', () => {
    expect(tool('by_code').notExercised).toContain('no arguments could be generated');
    expect(tool('by_code').calls).toEqual([]);
  });

  it('catches a closed-world tool that resolves a name; the lookup never left the sandbox', () => {
    const lookup = tool('whois_local');
    expect(lookup.findings.map((f) => f.ruleId)).toContain('observe/closed-world-connected');
    const evidence = lookup.findings.flatMap((f) => f.evidence);
    expect(evidence.some((e) => /^resolved a name: connect .+:53 \((attempted|connected)\)$/.test(e))).toBe(true);
    const outbound = report.tools.flatMap((t) =>
      t.calls.flatMap((c) => c.effects.filter((e) => e.kind === 'connect' && !e.loopback && e.family !== 'unix')),
    );
    expect(outbound.length).toBeGreaterThan(0);
    expect(outbound.filter((e) => e.kind === 'connect' && e.succeeded)).toEqual([]);
  });

  it('says plainly when a server never finishes the handshake, or exits before it', async () => {
    await expect(
      observe({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1e6)'], workdir, timeoutMs: 1_500 }),
    ).rejects.toThrow(/did not finish the MCP handshake within 1500 ms in the sandbox\. It has no network there/);
    await expect(
      observe({ command: process.execPath, args: ['-e', 'process.exit(3)'], workdir, timeoutMs: 5_000 }),
    ).rejects.toThrow(/stopped before finishing the MCP handshake/);
  });
});
