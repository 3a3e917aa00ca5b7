/**
 * A candor server protected by `auth`, on a real loopback port, with the test
 * authorization server next to it. The HTTP socket is bound first so the
 * resource URI (which tokens must name as audience) is known before the
 * server is built.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthOptions } from '../../src/auth/types.js';
import { type CandorServer, createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import type { ServerLogger } from '../../src/util/logger.js';
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
  type TestClient,
} from './test-authorization-server.js';

/** Every line the server logged, to prove no token ever reaches a log. */
export function recordingLogger(lines: string[]): ServerLogger {
  const record = (level: string) => (message: string, details?: object) =>
    lines.push(`${level} ${message} ${details === undefined ? '' : JSON.stringify(details, replacer)}`);
  return { error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') };
}

function replacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message } : value;
}

export const NOTE_TOOLS = [
  defineTool({
    name: 'read_note',
    description: 'Read the note.',
    effect: 'read',
    world: 'closed',
    handler: () => 'a note',
  }),
  defineTool({
    name: 'add_note',
    description: 'Add a note.',
    effect: 'additive',
    world: 'closed',
    handler: () => 'added',
  }),
  defineTool({
    name: 'delete_note',
    description: 'Delete the note.',
    effect: 'destructive',
    world: 'closed',
    handler: () => 'deleted',
  }),
  defineTool({
    name: 'whoami',
    description: 'Say who is calling, as the server sees it.',
    effect: 'read',
    world: 'closed',
    handler: (_args, ctx) => {
      // A careless handler cannot widen what this token may do on later requests.
      try {
        ctx.auth?.scopes?.push('tools:destructive');
      } catch {}
      return JSON.stringify(ctx.auth ?? null);
    },
  }),
];

export const ALL_SCOPES = ['tools:read', 'tools:write', 'tools:destructive'];

export interface ProtectedServer {
  readonly url: string;
  readonly base: string;
  readonly resource: string;
  readonly as: TestAuthorizationServer;
  readonly server: CandorServer;
  readonly logs: string[];
  close(): Promise<void>;
}

/** Start the authorization server and a protected candor server (stateful unless told). */
export async function startProtected(
  options: {
    auth?: (as: TestAuthorizationServer) => Partial<AuthOptions>;
    clients?: Record<string, TestClient>;
    sessions?: 'stateful' | 'stateless';
  } = {},
): Promise<ProtectedServer> {
  const http = createHttpServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const resource = `${base}/mcp`;
  const as = await startAuthorizationServer({ resource, clients: options.clients ?? {} });
  const logs: string[] = [];
  const server = createServer({
    name: 'notes',
    version: '1.0.0',
    tools: NOTE_TOOLS,
    logger: recordingLogger(logs),
    lintOnStart: false,
    auth: { issuer: as.issuer, resource, jwks: as.jwksUri, jwksCooldownMs: 0, ...options.auth?.(as) },
  });
  const handler = server.httpHandler({ env: {}, sessions: options.sessions ?? 'stateful' });
  http.on('request', (req, res) => void handler.nodeHandler(req, res));
  return {
    url: resource,
    base,
    resource,
    as,
    server,
    logs,
    async close() {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await as.close();
    },
  };
}
