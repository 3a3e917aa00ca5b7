/**
 * Server-sent events to the console page: confirmation requests, call progress,
 * server logs, session-log entries and tool-list changes. One hub, many pages.
 */
import type { ServerResponse } from 'node:http';

/** One event the console receives. */
export interface ConsoleEvent {
  type: 'confirm' | 'confirm-settled' | 'progress' | 'log' | 'session' | 'tools-changed' | 'warning';
  data: unknown;
}

/**
 * Fan-out of console events to every open `/api/events` stream.
 *
 * @example
 * ```ts
 * const hub = new EventHub();
 * hub.attach(response);
 * hub.send({ type: 'progress', data: { callId, progress: 1, total: 4 } });
 * ```
 */
export class EventHub {
  readonly #clients = new Set<ServerResponse>();
  #keepAlive: NodeJS.Timeout | undefined;

  /** Keep a response open as an event stream until the page goes away; `initial` events go to it first. */
  attach(response: ServerResponse, initial: readonly ConsoleEvent[] = []): void {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Content-Type-Options': 'nosniff',
    });
    response.write(': connected\n\n');
    for (const event of initial) response.write(format(event));
    this.#clients.add(response);
    response.on('close', () => this.#clients.delete(response));
    // A comment every 20 s keeps idle proxies and the browser from dropping the stream.
    this.#keepAlive ??= setInterval(() => {
      for (const client of this.#clients) client.write(': keep-alive\n\n');
    }, 20_000).unref();
  }

  /** Whether any page listens (a confirmation nobody can see is denied at once). */
  get listening(): boolean {
    return this.#clients.size > 0;
  }

  send(event: ConsoleEvent): void {
    const text = format(event);
    for (const client of this.#clients) client.write(text);
  }

  close(): void {
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }
}

function format(event: ConsoleEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
