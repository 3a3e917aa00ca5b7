/**
 * The stdio reader for a connection with lean `tools/call`s (lean-calls.ts).
 *
 * The SDK's reader concatenates every chunk onto what is left, decodes each line,
 * parses it, and then checks the parsed value against its JSON-RPC schema with
 * zod: in the gateway that check was the largest single cost of reading an
 * upstream's answer. This reader frames each line once (no concatenation unless a
 * line spans chunks), parses it once, and hands an answer to a lean call (a
 * response whose id is the lean path's) over without the schema pass: the lean
 * path checks the result's shape itself. Every other message (the SDK client's
 * own responses, requests, notifications) still gets the SDK's validation, on the
 * value already parsed.
 */
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  ReadBuffer,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
} from '@modelcontextprotocol/client';
import { FIRST_ID } from './lean-calls.js';

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * A drop-in for the SDK's `ReadBuffer` (same size limit, same skipping of lines
 * that are not JSON), installed on a stdio transport before it starts.
 *
 * @example
 * ```ts
 * const transport = new StdioClientTransport({ command: 'node', args: ['server.js'] });
 * useLeanReader(transport);
 * ```
 */
export class LeanReadBuffer extends ReadBuffer {
  #buffer: Buffer | undefined;
  /** Where the unread bytes of #buffer start. */
  #start = 0;
  readonly #max: number;

  constructor(options: { maxBufferSize?: number } = {}) {
    super(options);
    this.#max = options.maxBufferSize ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  }

  override append(chunk: Buffer): void {
    const left = this.#buffer === undefined ? 0 : this.#buffer.length - this.#start;
    if (left + chunk.length > this.#max) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.#max} bytes`);
    }
    // Only a line that spans chunks costs a copy.
    this.#buffer = left === 0 ? chunk : Buffer.concat([this.#buffer!.subarray(this.#start), chunk]);
    this.#start = 0;
  }

  override readMessage(): JSONRPCMessage | null {
    const buffer = this.#buffer;
    while (buffer !== undefined && this.#start < buffer.length) {
      const index = buffer.indexOf(NEWLINE, this.#start);
      if (index === -1) return null;
      const end = index > this.#start && buffer[index - 1] === RETURN ? index - 1 : index;
      const line = buffer.toString('utf8', this.#start, end);
      this.#start = index + 1;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue; // as the SDK: a line that is not JSON (a stray log line) is skipped
      }
      return isLeanAnswer(value) ? value : parseJSONRPCMessage(value);
    }
    this.clear();
    return null;
  }

  override clear(): void {
    this.#buffer = undefined;
    this.#start = 0;
  }
}

/** A response to a lean call: no method, and a numeric id in the lean path's range. */
function isLeanAnswer(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as { id?: unknown; method?: unknown; jsonrpc?: unknown };
  return m.method === undefined && m.jsonrpc === '2.0' && typeof m.id === 'number' && m.id >= FIRST_ID;
}

/**
 * Put the lean reader on an SDK stdio transport that has not started. The SDK has
 * no option for its reader, so this replaces the one its constructor made; when a
 * later SDK keeps it elsewhere, nothing changes and the SDK's reader stays.
 * True when installed.
 */
export function useLeanReader(transport: object): boolean {
  const holder = transport as { _readBuffer?: unknown };
  if (!(holder._readBuffer instanceof ReadBuffer)) return false;
  holder._readBuffer = new LeanReadBuffer();
  return true;
}
