/**
 * The stdio transport: newline-delimited JSON-RPC on stdin/stdout (spec,
 * transports: stdio). stdout carries protocol messages only; every log goes
 * to stderr. A malformed line is answered with a parse error and the server
 * keeps reading; the end of stdin drains running calls, then closes.
 */
import type { Readable, Writable } from 'node:stream';
import type { Channel, JsonRpcMessage } from '../engine/channel.js';
import type { Dispatcher } from '../engine/dispatcher.js';
import { errorResponse, INVALID_REQUEST, parseError, serializeMessageParts } from '../engine/jsonrpc.js';

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Default `process.stdin`. */
  stdin?: Readable;
  /** Default `process.stdout`. */
  stdout?: Writable;
  /** Longest accepted line in characters (a longer one is answered with -32600 and skipped). Default 4 Mi. */
  maxLineBytes?: number;
}

/** A running stdio connection. */
export interface StdioConnection {
  /** Resolves when the connection has ended (stdin closed and calls drained, or `close()`). */
  readonly closed: Promise<void>;
  /** Stop reading, wait for running calls of this client, then end. */
  close(): Promise<void>;
}

/**
 * Serve one client over stdio.
 *
 * @example
 * ```ts
 * const connection = serveStdio(server.dispatcher);
 * await connection.closed;
 * ```
 */
export function serveStdio(dispatcher: Dispatcher, options: StdioOptions = {}): StdioConnection {
  const { stdin = process.stdin, stdout = process.stdout, maxLineBytes = 4 * 1024 * 1024 } = options;
  let writable = true;
  const write = (message: JsonRpcMessage | readonly JsonRpcMessage[]) => {
    if (!writable) return;
    const parts = serializeMessageParts(message);
    if (typeof parts === 'string') stdout.write(`${parts}\n`);
    else {
      // A large cached result (tools/list of many tools): its bytes as they are.
      stdout.write(parts[0]);
      stdout.write(parts[1]);
      stdout.write(`${parts[2]}\n`);
    }
  };
  const channel: Channel = {
    get open() {
      return writable;
    },
    send: write,
  };
  const peer = dispatcher.createPeer({ channel });
  const onStdoutError = (error: Error) => {
    // EPIPE: the client went away; stop writing, keep the process alive until stdin ends.
    writable = false;
    dispatcher.logger.warn('stdout is no longer writable', { error: error.message });
  };
  stdout.on('error', onStdoutError);

  // Streaming decode: a multi-byte character split across two chunks must survive.
  const decoder = new TextDecoder('utf-8');
  let buffered = '';
  let skipping = false;
  const onLine = (line: string) => {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      write(parseError());
      return;
    }
    void dispatcher.handle(message, { peer, channel }).then((answer) => {
      if (answer !== undefined) write(answer);
    });
  };
  const tooLong = () =>
    write(errorResponse(null, INVALID_REQUEST, `Invalid request: a message longer than ${maxLineBytes} characters.`));
  const onData = (chunk: Buffer | string) => {
    buffered += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).replace(/\r$/, '');
      buffered = buffered.slice(newline + 1);
      if (skipping) skipping = false;
      else if (line.length > maxLineBytes) tooLong();
      else onLine(line);
      newline = buffered.indexOf('\n');
    }
    // Characters, not bytes: cheap to check on every chunk, and never more than the byte count.
    if (!skipping && buffered.length > maxLineBytes) {
      tooLong();
      buffered = '';
      skipping = true;
    }
  };

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let ending: Promise<void> | undefined;
  const end = () => {
    ending ??= (async () => {
      stdin.off('data', onData);
      stdin.off('end', end);
      stdin.off('close', end);
      buffered += decoder.decode();
      if (buffered.trim() !== '' && !skipping) onLine(buffered);
      buffered = '';
      // Let running calls finish and write their answers before the peer goes away.
      await peer.settled();
      await new Promise<void>((resolve) => setImmediate(resolve));
      peer.close();
      stdout.off('error', onStdoutError);
      resolveClosed();
    })();
    return ending;
  };
  stdin.on('data', onData);
  stdin.on('end', end);
  stdin.on('close', end);
  stdin.resume();

  return {
    closed,
    close: async () => {
      stdin.pause();
      await end();
    },
  };
}
