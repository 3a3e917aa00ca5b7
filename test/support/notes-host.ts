/**
 * The real candor host over the logging notes server (test/fixtures/adapters):
 * `notes` is trusted, `stranger` runs the same program untrusted. `log()` reads
 * what reached the servers, so tests assert on the wire, not on the adapter.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, vi } from 'vitest';
import {
  type ConfirmAnswer,
  type ConfirmRequest,
  createHost,
  type Host,
  type HostOptions,
} from '../../src/host/index.js';

const SERVER = join(import.meta.dirname, '../fixtures/adapters/logging-server.mjs');

/** One line of the server log. */
export interface LogEntry {
  server: string;
  event: 'start' | 'end';
  tool: string;
  args: Record<string, unknown>;
  inFlight: number;
}

export interface NotesHost {
  host: Host;
  /** Everything that reached the servers so far. */
  log(): LogEntry[];
  /** Forget the log. */
  clear(): void;
  close(): Promise<void>;
}

/** Start both servers and a host over them; `options` adds policy, pins, onConfirm. */
export async function notesHost(options: Omit<HostOptions, 'servers'> = {}): Promise<NotesHost> {
  const dir = mkdtempSync(join(tmpdir(), 'candor-adapters-'));
  const logFile = join(dir, 'calls.jsonl');
  writeFileSync(logFile, '');
  const server = (name: string, trust: 'trusted' | 'untrusted') => ({
    command: process.execPath,
    args: [SERVER],
    env: { LOG_FILE: logFile, SERVER_NAME: name, PATH: process.env.PATH ?? '' },
    stderr: 'inherit' as const,
    trust,
  });
  const host = await createHost({
    ...options,
    servers: { notes: server('notes', 'trusted'), stranger: server('stranger', 'untrusted') },
  });
  return {
    host,
    log: () =>
      readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as LogEntry),
    clear: () => writeFileSync(logFile, ''),
    close: async () => {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether two reads overlapped at a server: one started while the other was in flight. */
export function readsOverlapped(log: readonly LogEntry[]): boolean {
  return log.some((e) => e.event === 'start' && e.tool === 'read_note' && e.inFlight >= 2);
}

/** Calls that started while another call was in flight at a server, where one of them writes. */
export function writeOverlaps(log: readonly LogEntry[]): LogEntry[] {
  const inFlight = new Map<string, LogEntry[]>();
  const overlaps: LogEntry[] = [];
  for (const entry of log) {
    const running = inFlight.get(entry.server) ?? [];
    if (entry.event === 'start') {
      const writes = entry.tool !== 'read_note' || running.some((r) => r.tool !== 'read_note');
      if (running.length > 0 && writes) overlaps.push(entry);
      running.push(entry);
    } else {
      const at = running.findIndex(
        (r) => r.tool === entry.tool && JSON.stringify(r.args) === JSON.stringify(entry.args),
      );
      if (at >= 0) running.splice(at, 1);
    }
    inFlight.set(entry.server, running);
  }
  return overlaps;
}

/** The calls of one tool that reached the servers (their start lines). */
export function started(log: readonly LogEntry[], tool: string): LogEntry[] {
  return log.filter((e) => e.event === 'start' && e.tool === tool);
}

/** Change delete_note's definition on the notes server and wait until the host has the new one. */
export async function reviseTool(host: Host): Promise<void> {
  const before = host.tool('notes__delete_note')!.hash;
  const changed = new Promise<void>((resolve) => {
    const off = host.on('tools-changed', ({ server }) => {
      if (server === 'notes' && host.tool('notes__delete_note')!.hash !== before) {
        off();
        resolve();
      }
    });
  });
  const [outcome] = await host.run([
    { tool: 'notes__revise', approval: { pinHash: host.tool('notes__revise')!.hash } },
  ]);
  if (outcome!.status !== 'ok') throw new Error(`revise failed: ${outcome!.message}`);
  await changed;
}

/**
 * One notes host per test, closed after it, with an `onConfirm` that records
 * every question and answers deny (so a call that asks again is seen and refused).
 */
export function useNotesHost() {
  const onConfirm = vi.fn((_request: ConfirmRequest): ConfirmAnswer => 'deny');
  let current: NotesHost | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    onConfirm,
    async open(options: Omit<HostOptions, 'servers' | 'onConfirm'> = {}): Promise<NotesHost> {
      onConfirm.mockClear();
      current = await notesHost({ onConfirm, ...options });
      return current;
    },
    /** The host of the running test. */
    get notes(): NotesHost {
      if (!current) throw new Error('open() the notes host first');
      return current;
    },
  };
}
