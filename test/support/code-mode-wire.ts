/**
 * Code mode over the wire, shared by the gateway's code-mode tests: a gateway in front
 * of a stdio fixture upstream that logs every call it runs, and downstream SDK v1 and v2
 * clients (v2 in either era) that answer each question as told and keep what they were
 * asked. Everything started is closed by `close()`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type AuditEntry, createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/index.js';
import { waitFor } from './until.js';

/** An answer to the gateway's question. */
export type Answer = { action: 'accept'; content: { decision: string } } | { action: 'decline' };

export const allowScript: Answer = { action: 'accept', content: { decision: 'allow-script' } };
export const denyScript: Answer = { action: 'accept', content: { decision: 'deny' } };

/** The text blocks of a result, joined. */
export const resultText = (result: unknown) =>
  ((result as { content?: Array<{ type: string; text?: string }> }).content ?? []).map((b) => b.text ?? '').join('\n');

/** The tools the fixture upstream ran, in order, from its log. */
export function ranCalls(log: string): string[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { tool: string }).tool);
}

/** A downstream client of either SDK, as the tests use it. */
export interface WireClient {
  kind: 'v1' | 'v2' | 'v2-2026';
  callTool(name: string, args?: Record<string, unknown>): Promise<{ isError?: boolean; text: string; raw: unknown }>;
  listTools(): Promise<
    Array<{
      name: string;
      description?: string;
      annotations?: Record<string, unknown>;
      _meta?: Record<string, unknown>;
    }>
  >;
  /** Resolves at the next tools/list_changed notification. */
  nextListChanged(): Promise<void>;
  /** The questions asked, each message with its requested schema. */
  asked: string[];
}

/**
 * The harness of one test file.
 *
 * @example
 * ```ts
 * const wire = codeModeWire('code-mode');
 * afterAll(() => wire.close());
 * const { url } = await wire.startGateway();
 * const client = await wire.connect('v2-2026', url, allowScript);
 * ```
 */
export function codeModeWire(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `candor-${name}-`));
  const open: Array<{ close(): Promise<unknown> }> = [];
  let logs = 0;
  const silent = { error() {}, warn() {}, info() {}, debug() {} };

  /** A gateway with a code-mode profile at `<url>` in front of `fixture` (trusted, named `server`). */
  const startGateway = async (
    options: Partial<GatewayOptions> & { fixture?: string; server?: string; env?: Record<string, string> } = {},
  ) => {
    const {
      fixture = join(import.meta.dirname, '../fixtures/gateway/upstream.mjs'),
      server = 'notes',
      env,
      ...rest
    } = options;
    const log = join(dir, `upstream-${++logs}.log`);
    const audit: AuditEntry[] = [];
    const gateway = await createGateway({
      servers: {
        [server]: {
          command: process.execPath,
          args: [fixture],
          env: { GATEWAY_FIXTURE_LOG: log, ...env },
          stderr: 'ignore',
          trust: 'trusted',
        },
      },
      profiles: { code: { toolList: 'code' } },
      audit: (entry) => audit.push(entry),
      logger: silent,
      ...rest,
    });
    const listener = await gateway.listen({ port: 0, handleSignals: false });
    open.push({ close: () => gateway.close() }, { close: () => listener.close() });
    return { url: `${listener.url}/code`, full: listener.url, log, audit, gateway };
  };

  /**
   * A client of `kind` answering every question with `answers` (none: it cannot be asked);
   * a list answers the questions in order, its last answer any after.
   */
  const connect = async (kind: WireClient['kind'], url: string, answers?: Answer | Answer[]): Promise<WireClient> => {
    const asked: string[] = [];
    const answer = answers;
    const nextAnswer = () =>
      Array.isArray(answers) ? answers[Math.min(asked.length - 1, answers.length - 1)] : answers;
    let changed: Array<() => void> = [];
    const onChanged = () => {
      const waiting = changed;
      changed = [];
      for (const resolve of waiting) resolve();
    };
    const nextListChanged = () => new Promise<void>((resolve) => changed.push(resolve));
    // What the tests use of either SDK's client: the two have the same two methods.
    const wireClient = (
      kind: WireClient['kind'],
      client: {
        callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
        listTools(): Promise<{ tools: unknown[] }>;
      },
    ): WireClient => ({
      kind,
      asked,
      nextListChanged,
      callTool: async (tool, args = {}) => {
        const raw = await client.callTool({ name: tool, arguments: args });
        return { isError: (raw as { isError?: boolean }).isError, text: resultText(raw), raw };
      },
      listTools: async () => (await client.listTools()).tools as never,
    });
    if (kind === 'v1') {
      const client = new ClientV1(
        { name: 'code-v1', version: '1.0.0' },
        { capabilities: answer ? { elicitation: {} } : {} },
      );
      if (answer)
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          asked.push(
            `${request.params.message}\n${JSON.stringify((request.params as { requestedSchema?: unknown }).requestedSchema)}`,
          );
          return nextAnswer() as never;
        });
      client.setNotificationHandler(ToolListChangedNotificationSchema, onChanged);
      await client.connect(new TransportV1(new URL(url)));
      open.push({ close: () => client.close() });
      return wireClient(kind, client);
    }
    const client = new ClientV2(
      { name: 'code-v2', version: '1.0.0' },
      {
        capabilities: answer ? { elicitation: { form: {} } } : {},
        ...(kind === 'v2-2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    client.setNotificationHandler('notifications/tools/list_changed', onChanged);
    if (answer)
      client.setRequestHandler('elicitation/create', async (request) => {
        const params = request.params as { message: string; requestedSchema: unknown };
        asked.push(`${params.message}\n${JSON.stringify(params.requestedSchema)}`);
        return nextAnswer() as never;
      });
    await client.connect(new TransportV2(new URL(url)));
    open.push({ close: () => client.close() });
    if (kind === 'v2-2026') {
      if (client.getNegotiatedProtocolVersion() !== '2026-07-28')
        throw new Error(`negotiated ${client.getNegotiatedProtocolVersion()}, not 2026-07-28`);
      // 2026-07-28: change notifications come on a listen stream the client opens.
      const subscription = await client.listen({ toolsListChanged: true });
      open.push({ close: () => subscription.close() });
    }
    return wireClient(kind, client);
  };

  /**
   * 2025 era: resolves once `count` sessions of a profile's endpoint hold their GET stream,
   * where list_changed goes (a notification sent before a client opened it is not replayed).
   */
  const streamsOpen = (gateway: Gateway, profile: string, count = 1) =>
    waitFor(
      () => [...gateway.profile(profile).dispatcher.peers].filter((peer) => peer.channel !== undefined).length >= count,
      "the clients' GET streams",
    );

  const close = async () => {
    for (const item of open.reverse()) await item.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };

  return { dir, startGateway, connect, streamsOpen, close };
}
