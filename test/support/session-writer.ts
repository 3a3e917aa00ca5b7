/**
 * One 2025-era session writing through a balancer at a steady pace:
 * the load the fault tests and bench/faults.ts put on a cluster while they
 * break parts of it. Each call is a `write` of the next sequence number,
 * answered or abandoned after `timeoutMs`; every outcome is recorded with its
 * start and end times, so a test can count failures inside and outside a
 * fault's window and check that no acknowledged write was lost.
 */

export interface WriteRecord {
  seq: number;
  /** ms since the writer started. */
  start: number;
  end: number;
  ok: boolean;
  /** HTTP status (0: no answer: the connection failed or the call was abandoned). */
  status: number;
  /** Which instance answered (haproxy's `x-candor-backend`). */
  backend?: string;
  /** Why it failed, shortly. */
  error?: string;
}

export interface SessionWriter {
  readonly session: string;
  readonly records: WriteRecord[];
  /** ms since the writer started. */
  now(): number;
  stop(): Promise<void>;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface SessionWriterOptions {
  /** Pause between the start of one call and the next (ms; 0: back to back). Default 25. */
  intervalMs?: number;
  /** A call not answered by then is abandoned and counted as failed (ms). Default 8000. */
  timeoutMs?: number;
  /** The tool call for a sequence number. Default: `write { seq }`. */
  call?: (seq: number) => { name: string; arguments: Record<string, unknown> };
  /** Whether a result's first text block means success. Default: `wrote <seq> …`. */
  accept?: (text: string, seq: number) => boolean;
  /** Time zero of the records (a `performance.now()` value; writers that share it share a timeline). Default: now. */
  t0?: number;
}

/** Open a session at `url` (through the balancer) and call a tool every `intervalMs`. */
export async function startSessionWriter(url: string, options: SessionWriterOptions = {}): Promise<SessionWriter> {
  const {
    intervalMs = 25,
    timeoutMs = 8000,
    call = (seq: number) => ({ name: 'write', arguments: { seq } }),
    accept = (text: string, seq: number) => text.startsWith(`wrote ${seq} `),
  } = options;
  const session = await openWriterSession(url);
  const headers = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  const records: WriteRecord[] = [];
  const t0 = options.t0 ?? performance.now();
  const now = () => performance.now() - t0;
  let running = true;
  const loop = (async () => {
    for (let seq = 1; running; seq++) {
      const start = now();
      const record: WriteRecord = { seq, start, end: start, ok: false, status: 0 };
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id: seq, method: 'tools/call', params: call(seq) }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        record.status = response.status;
        const backend = response.headers.get('x-candor-backend');
        if (backend !== null) record.backend = backend;
        const text = await response.text();
        const answer = parseAnswer(text);
        record.ok =
          response.status === 200 &&
          answer?.result?.isError !== true &&
          accept(answer?.result?.content?.[0]?.text ?? '', seq);
        if (!record.ok) record.error = text.slice(0, 200);
      } catch (error) {
        record.error = (error as Error).message;
      }
      record.end = now();
      records.push(record);
      const wait = start + intervalMs - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    session,
    records,
    now,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** POST a 2025-11-25 `initialize` (the caller reads the answer). */
export function postInitialize(url: string, clientName = 'writer'): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: clientName, version: '1.0.0' } },
    }),
  });
}

async function openWriterSession(url: string): Promise<string> {
  const response = await postInitialize(url);
  await response.text();
  const session = response.headers.get('mcp-session-id');
  if (response.status !== 200 || session === null) throw new Error(`initialize failed with ${response.status}`);
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  return session;
}

/** The JSON-RPC answer in a JSON or SSE body. */
function parseAnswer(text: string): { result?: { isError?: boolean; content?: Array<{ text?: string }> } } | undefined {
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((line) => line.startsWith('data: {'))
        ?.slice(6);
  if (json === undefined) return undefined;
  try {
    return JSON.parse(json) as ReturnType<typeof parseAnswer>;
  } catch {
    return undefined;
  }
}

/** Summary of the records that started in `[from, to)` (ms since the writer started). */
export function windowOf(records: readonly WriteRecord[], from: number, to = Number.POSITIVE_INFINITY) {
  const inside = records.filter((r) => r.start >= from && r.start < to);
  const failed = inside.filter((r) => !r.ok);
  return {
    calls: inside.length,
    ok: inside.length - failed.length,
    failed,
    /** ms from `from` to the start of the last failing call (0 when none failed). */
    lastFailureAfter: failed.length === 0 ? 0 : Math.max(...failed.map((r) => r.start)) - from,
    slowest: inside.reduce((most, r) => Math.max(most, r.end - r.start), 0),
  };
}
