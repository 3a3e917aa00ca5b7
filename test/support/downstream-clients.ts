/**
 * The three downstream clients the gateway's wire tests run through: the SDK v1
 * client, the SDK v2 client on the 2025 era, and the SDK v2 client pinned to
 * 2026-07-28, each reduced to one `call(name, args)`.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** What a tool call answers, as the tests read it. */
export interface CallResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** One tool call through a connected client. */
export type Call = (name: string, args?: Record<string, unknown>) => Promise<CallResult>;

/**
 * `[title, connect]` for each client, for `describe.each`; `closers` gets each client's close;
 * `capabilities` are declared by each client (e.g. `extensions`).
 *
 * @example
 * ```ts
 * describe.each(downstreamClients(closers))('through the gateway with %s', (_title, connect) => { … });
 * ```
 */
export function downstreamClients(
  closers: Array<() => Promise<unknown>>,
  capabilities: Record<string, unknown> = {},
): Array<[string, (url: string) => Promise<Call>]> {
  const callerOf =
    (client: { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }): Call =>
    async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as CallResult;
  return [
    [
      'an SDK v1 client',
      async (url) => {
        const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities });
        await client.connect(new TransportV1(new URL(url)));
        closers.push(() => client.close());
        return callerOf(client);
      },
    ],
    [
      'an SDK v2 client on the 2025 era',
      async (url) => {
        const client = new ClientV2({ name: 'v2', version: '1.0.0' }, { capabilities });
        await client.connect(new TransportV2(new URL(url)));
        closers.push(() => client.close());
        return callerOf(client);
      },
    ],
    [
      'an SDK v2 client on the 2026-07-28 era',
      async (url) => {
        const client = new ClientV2(
          { name: 'v2-modern', version: '1.0.0' },
          { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
        await client.connect(new TransportV2(new URL(url)));
        closers.push(() => client.close());
        return callerOf(client);
      },
    ],
  ];
}
