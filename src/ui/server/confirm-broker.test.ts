import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { ConfirmBroker } from './confirm-broker.js';
import { EventHub } from './event-stream.js';
import { SessionLog } from './session-log.js';

test('a question nobody answers is denied after the answer timeout, and the log says why', async () => {
  const hub = new EventHub();
  const log = new SessionLog(hub);
  // A page is "open": one real event-stream response attached to the hub.
  const http = createServer((_req, res) => hub.attach(res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const page = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/`);
  try {
    expect(hub.listening).toBe(true);
    const broker = new ConfirmBroker(hub, log, 50);
    const request = {
      tool: 'workspace__delete_path',
      server: 'workspace',
      title: 'Delete',
      args: { path: 'a.txt' },
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      trust: 'untrusted',
      reason: 'destructive',
      canRemember: false,
    } as unknown as Parameters<ConfirmBroker['ask']>[0];
    expect(await broker.ask(request)).toBe('deny');
    expect(broker.openQuestions()).toEqual([]);
    expect(log.entries().at(-1)).toMatchObject({ kind: 'decision', tool: 'workspace__delete_path' });
    expect(JSON.stringify(log.entries().at(-1))).toContain('nobody answered within 0 s');
  } finally {
    await page.body?.cancel();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});
