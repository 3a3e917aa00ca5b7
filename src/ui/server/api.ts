/**
 * The console's JSON API, behind the checks of security.ts. Every handler
 * returns a value (sent as JSON) or throws `ApiError` (sent as `{ error }`).
 */

import type { IncomingMessage } from 'node:http';
import { CandorError } from '../../errors.js';
import type { Host } from '../../host/host-api.js';
import type { ConfirmBroker } from './confirm-broker.js';
import { callScope } from './confirm-broker.js';
import type { EventHub } from './event-stream.js';
import { serverOffers } from './offers.js';
import { approveServer, reviewItems } from './review.js';
import type { SessionLog } from './session-log.js';
import type { RowQuery, ToolTable } from './tool-rows.js';
import { LOG_META, ViewCallRefused, type ViewGate } from './view-gate.js';

/** An API failure with its HTTP status. */
export class ApiError extends CandorError {
  override readonly name = 'ApiError';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message, { code: 'console_request_failed' });
    this.status = status;
  }
}

/** What the API works with. */
export interface ApiDeps {
  host: Host;
  table: ToolTable;
  views: ViewGate;
  broker: ConfirmBroker;
  hub: EventHub;
  log: SessionLog;
  policyName: string;
  sandboxOrigin: string;
  /** The lockfile (`candor ui --lock`): enables the review pane. */
  lockFile?: string;
}

const MAX_BODY = 1024 * 1024;

/** Read a JSON object body (at most 1 MiB). */
export async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    throw new ApiError(415, 'Send JSON (Content-Type: application/json).');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new ApiError(413, 'The request body is larger than 1 MiB.');
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new ApiError(400, `The body is not JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

function flag(value: string | null): boolean | undefined {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === null || value === '' || value === 'any') return undefined;
  throw new ApiError(400, `A hint filter is true, false or any; got ${JSON.stringify(value)}.`);
}

function argsOf(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, '"args" must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** GET handlers by path. */
export function getRoutes(deps: ApiDeps): Record<string, (url: URL) => unknown> {
  return {
    '/api/state': () => ({
      policy: deps.policyName,
      sandboxOrigin: deps.sandboxOrigin,
      servers: deps.host.servers().map((server) => ({
        ...server,
        findings: deps.table.serverFindings(server.name),
        pins: deps.host.pins.report(server.name) ?? null,
      })),
    }),
    '/api/tools': (url) => {
      const query: RowQuery = {};
      const text = url.searchParams.get('text');
      if (text) query.text = text;
      for (const hint of ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const) {
        const value = flag(url.searchParams.get(hint));
        if (value !== undefined) query[hint] = value;
      }
      const server = url.searchParams.get('server');
      if (server) query.server = server;
      const tag = url.searchParams.get('tag');
      if (tag) query.tag = tag;
      return { tools: deps.table.rows(query) };
    },
    '/api/tool': (url) => {
      const name = url.searchParams.get('name') ?? '';
      const detail = deps.table.detail(name);
      if (!detail) throw new ApiError(404, `No tool named ${JSON.stringify(name)}.`);
      return detail;
    },
    '/api/offers': async () => ({ servers: await serverOffers(deps.host) }),
    '/api/log': () => ({ entries: deps.log.entries() }),
    '/api/review': () => ({ lockFile: deps.lockFile ?? null, items: deps.lockFile ? reviewItems(deps.host) : [] }),
  };
}

/** POST handlers by path. */
export function postRoutes(deps: ApiDeps): Record<string, (body: Record<string, unknown>) => Promise<unknown>> {
  return {
    '/api/call': async (body) => {
      const name = body.tool;
      if (typeof name !== 'string') throw new ApiError(400, 'Say which tool to call ("tool").');
      const tool = deps.host.tool(name);
      if (!tool) throw new ApiError(404, `No tool named ${JSON.stringify(name)}.`);
      const args = argsOf(body.args);
      const callId = typeof body.callId === 'string' ? body.callId.slice(0, 100) : undefined;
      if (!tool.visibility.includes('model')) {
        // App-only tools are their View's helpers, not something a person (or the model) calls directly.
        deps.log.add({
          kind: 'refusal',
          origin: 'console',
          tool: name,
          summary: 'app-only tool: call it from its View',
        });
        throw new ApiError(
          403,
          `${name} is visible only to apps (_meta.ui.visibility lacks "model"); its View calls it.`,
        );
      }
      deps.log.add({ kind: 'call', origin: 'console', tool: name, summary: 'called from the console', detail: args });
      const outcome = await callScope.run({ origin: 'console', ...(callId ? { callId } : {}) }, () =>
        deps.host.call(name, args, {
          meta: LOG_META,
          onProgress: (_index, progress) =>
            deps.hub.send({ type: 'progress', data: { callId, tool: name, ...progress } }),
        }),
      );
      deps.log.add({
        kind: 'call',
        origin: 'console',
        tool: name,
        summary: `${outcome.status}${outcome.message ? `: ${outcome.message}` : ''}`,
      });
      return outcome;
    },
    '/api/review/approve': async (body) => {
      const lockFile = deps.lockFile;
      if (!lockFile) throw new ApiError(400, 'Start candor ui with --lock FILE to approve servers.');
      const item = reviewItems(deps.host).find((i) => i.server === body.server);
      if (!item) throw new ApiError(404, `Nothing of ${JSON.stringify(body.server)} waits for review.`);
      const accept = Array.isArray(body.accept) ? body.accept.filter((r): r is string => typeof r === 'string') : [];
      // Approval is a person's act: the same dialog as a call's confirmation, on the Node side.
      const answer = await callScope.run({ origin: 'console' }, () =>
        deps.broker.ask({
          tool: `${item.server} (approve)`,
          server: item.server,
          title: `Approve ${item.server}: pin ${item.tools.length} tool${item.tools.length === 1 ? '' : 's'}`,
          args: { lockfile: lockFile, tools: item.tools.map((t) => t.toolName), accept },
          hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
          trust: 'untrusted',
          reason: `${item.kind === 'quarantined' ? `${item.server} is quarantined` : `tools of ${item.server} changed since pinned`}; approving pins the definitions shown into ${lockFile}${accept.length > 0 ? `, accepting ${accept.join(', ')}` : ''}`,
          canRemember: false,
          pin: { status: item.kind === 'quarantined' ? 'unpinned' : 'changed' },
        }),
      );
      if (answer === 'deny') return { approved: false, reason: 'you declined in the dialog' };
      const review = await approveServer(deps.host, lockFile, item.server, accept);
      deps.table.rebuild();
      deps.hub.send({ type: 'tools-changed', data: { server: item.server } });
      deps.log.add({
        kind: 'decision',
        origin: 'console',
        summary: review.pinned ? `approved ${item.server}: pinned into ${lockFile}` : `${item.server} was not pinned`,
      });
      return review.pinned
        ? { approved: true, review }
        : { approved: false, review, reason: 'the scan at the door found findings not accepted' };
    },
    '/api/confirm': async (body) => {
      if (!deps.broker.answer(body.id, body.answer)) {
        throw new ApiError(404, 'No such open question, or the answer is not allow-once, allow-always or deny.');
      }
      return { ok: true };
    },
    '/api/views': async (body) => {
      try {
        return await deps.views.open(body.tool);
      } catch (error) {
        if (error instanceof ViewCallRefused) throw new ApiError(400, error.message);
        throw new ApiError(502, `Reading the View failed: ${(error as Error).message}`);
      }
    },
    '/api/views/close': async (body) => {
      deps.views.close(body.viewId);
      return { ok: true };
    },
    '/api/views/call': async (body) => {
      try {
        return await deps.views.call(body.viewId, body.name, body.args);
      } catch (error) {
        if (error instanceof ViewCallRefused) throw new ApiError(403, error.message);
        throw error;
      }
    },
    '/api/views/event': async (body) => {
      // ui/message, model-context updates, link requests and View logs: shown and logged, never sent anywhere.
      const server = deps.views.serverOf(body.viewId);
      if (!server) throw new ApiError(404, 'This View is not open (unknown view id).');
      const kind = typeof body.kind === 'string' ? body.kind.slice(0, 40) : 'event';
      const text = JSON.stringify(body.detail ?? null).slice(0, 2000);
      deps.log.add({ kind: 'view', origin: `view:${server}`, summary: `${kind} (shown, not sent): ${text}` });
      return { ok: true };
    },
  };
}
