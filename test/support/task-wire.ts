/**
 * Raw JSON-RPC over Streamable HTTP for the tasks tests: one session per
 * client (2025 era) or envelope-carrying requests (2026-07-28), answers
 * read whether they come as JSON or as an SSE stream.
 */
import { messagesOf, openSession, post, readSse } from './http-support.js';

export type Answer = { result?: Record<string, any>; error?: { code: number; message: string; data?: any } };

/** The JSON-RPC answer to request `id` in a POST response (JSON or SSE). */
export async function answerOf(response: Response, id: string | number): Promise<Answer & { status: number }> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    const events = await readSse(response, (seen) => messagesOf(seen).some((m) => m.id === id));
    const answer = messagesOf(events).find((m) => m.id === id);
    return { status: response.status, ...(answer as Answer) };
  }
  const text = await response.text();
  return { status: response.status, ...(JSON.parse(text) as Answer) };
}

/** A 2025-11-25 session speaking raw JSON-RPC. */
export async function rawSession(url: string) {
  const session = await openSession(url, { protocolVersion: '2025-11-25' });
  let next = 0;
  return {
    session,
    async request(method: string, params: Record<string, unknown> = {}): Promise<Answer> {
      const id = `r${++next}`;
      const response = await post(
        url,
        { jsonrpc: '2.0', id, method, params },
        { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      );
      return answerOf(response, id);
    },
  };
}

export const MODERN = '2026-07-28';
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A 2026-07-28 client: every request carries the envelope and the standard headers. */
export function modernClient(url: string, options: { tasks?: boolean; capabilities?: object } = {}) {
  const capabilities = {
    ...options.capabilities,
    ...(options.tasks === false ? {} : { extensions: { [TASKS_EXTENSION]: {} } }),
  };
  let next = 0;
  return async (
    method: string,
    params: Record<string, unknown> = {},
    name?: string,
  ): Promise<Answer & { status: number }> => {
    const id = `m${++next}`;
    const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
    const named = name ?? (typeof params.name === 'string' ? params.name : (params.taskId as string | undefined));
    if (named !== undefined) headers['mcp-name'] = named;
    const body = {
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' },
        },
      },
    };
    return answerOf(await post(url, body, headers), id);
  };
}

/** Poll `tasks/get` (2026-07-28) until `until(status)` holds; throws after about 5 s. */
export async function pollTask(
  call: ReturnType<typeof modernClient>,
  taskId: string,
  until: (status: string) => boolean,
): Promise<Record<string, any>> {
  for (let i = 0; i < 250; i++) {
    const got = await call('tasks/get', { taskId });
    if (until(got.result!.status)) return got.result!;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`task ${taskId} never reached the status`);
}
