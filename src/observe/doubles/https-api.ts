/**
 * The HTTPS API double: a real TLS server (Node's `https`) standing in for a SaaS API
 * inside the sandbox. The API's host names resolve to it there (the sandbox's generated
 * /etc/hosts, and a route on port 443 through the network bridge), its certificate is
 * signed by a CA made for this run, and the sandboxed server trusts that CA the way its
 * runtime looks for one (`NODE_EXTRA_CA_CERTS` for Node; `SSL_CERT_FILE`,
 * `REQUESTS_CA_BUNDLE`, `CURL_CA_BUNDLE` and the system bundle, mounted over, for the
 * rest). It answers plausibly and records every request as a witness change: method,
 * host, path, GraphQL operation and whether it reads or writes; never a header, a query
 * value or a body.
 */
import { readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import path from 'node:path';
import { type Answer, jsonAnswer } from './https-answers.js';
import { makeRunCertificates } from './https-certificates.js';
import { graphqlAnswer } from './https-graphql-answer.js';
import { headChange, readRequest } from './https-recorder.js';
import type { DoubleOptions, StartedDouble, WitnessChange } from './types.js';

/** The port the API's names answer on inside the sandbox. */
export const HTTPS_PORT = 443;

/** How long `changes()` waits for bodies still arriving before it judges those requests by their heads. */
const BODY_WAIT_MS = 2_000;

function send(response: import('node:http').ServerResponse, answer: Answer): void {
  if (answer.body === undefined) {
    response.writeHead(answer.status).end();
    return;
  }
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** A batch of GraphQL requests (an array of `{ query }`) answers an array of answers. */
function batchAnswer(json: unknown): Answer | undefined {
  if (!Array.isArray(json) || json.length === 0) return undefined;
  const entries = json as Array<Record<string, unknown> | null>;
  if (!entries.every((e) => e !== null && typeof e === 'object' && typeof e.query === 'string')) return undefined;
  return { status: 200, body: entries.map((e) => graphqlAnswer(e!.query as string, e!.operationName)) };
}

/**
 * Start the HTTPS API double for `options.hosts` (the API's host names).
 *
 * @example
 * ```ts
 * const api = await startHttpsApiDouble({ dir: '/tmp/candor-double-x', hosts: ['api.example.com'] });
 * // api.env.NODE_EXTRA_CA_CERTS, api.routes: [{ host: 'api.example.com', port: 443, target: { host: '127.0.0.1', port: … } }]
 * await api.witness.mark(); // … a call …
 * await api.witness.changes(); // [{ kind: 'request', method: 'GET', host: 'api.example.com', path: '/v1/projects', read: true }]
 * await api.stop();
 * ```
 */
export async function startHttpsApiDouble(options: DoubleOptions): Promise<StartedDouble> {
  const hosts = [...new Set((options.hosts ?? []).map((h) => h.toLowerCase()))];
  const certificates = await makeRunCertificates({ dir: path.join(options.dir, 'tls'), hosts });
  const [cert, key] = await Promise.all([readFile(certificates.certFile), readFile(certificates.keyFile)]);
  /** One entry per request, in arrival order: its head's change, then the whole request's once read. */
  const recorded: Array<{ head: WitnessChange; whole: Promise<WitnessChange> }> = [];
  let marked = 0;
  const server: Server = createServer({ cert, key }, (request, response) => {
    const head = headChange(request, hosts);
    const reading = readRequest(request, hosts);
    recorded.push({
      head,
      whole: reading.then(
        (read) => read.change,
        () => head,
      ),
    });
    reading.then(
      (read) => {
        try {
          const answer =
            batchAnswer(read.json) ??
            jsonAnswer({
              method: read.change.method,
              host: read.change.host,
              path: read.change.path,
              meaning: read.meaning,
              ...(read.json !== undefined ? { json: read.json } : {}),
              ...(read.graphql !== undefined ? { graphql: read.graphql } : {}),
            });
          send(response, answer);
        } catch {
          // The request is recorded either way; an answer that cannot be made is the API's 500, not the double's end.
          send(response, { status: 500, body: { error: 'internal error' } });
        }
      },
      () => {
        // The client went away mid-body: nothing was sent in full, nothing to record.
        response.destroy();
      },
    );
  });
  // A client that fails TLS (it does not trust the run's CA) is its own failure; the double keeps serving.
  server.on('tlsClientError', () => {});
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
  options.signal?.addEventListener('abort', () => void stop(), { once: true });
  let stopped: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopped ??= (async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(options.dir, { recursive: true, force: true });
    })();
    return stopped;
  }
  const { caFile, bundleFile, systemBundle } = certificates;
  return {
    kind: 'https-api',
    env: {
      NODE_EXTRA_CA_CERTS: caFile,
      SSL_CERT_FILE: bundleFile,
      REQUESTS_CA_BUNDLE: bundleFile,
      CURL_CA_BUNDLE: bundleFile,
    },
    // Shown at their own paths too, so the variables above hold when the sandbox hides the folder they sit in.
    mounts: [
      [caFile, caFile],
      [bundleFile, bundleFile],
      ...(systemBundle ? [[bundleFile, systemBundle] as const] : []),
    ],
    hosts,
    destinations: [],
    routes: hosts.map((host) => ({ host, port: HTTPS_PORT, target: { host: '127.0.0.1', port } })),
    values: { url: `https://${hosts[0]}`, host: hosts[0]! },
    seeds: { ids: ['1', '2'], names: ['item 1', 'item 2'], urls: hosts.map((host) => `https://${host}/`) },
    witness: {
      mark: async () => {
        marked = recorded.length;
      },
      changes: async () => {
        // A request whose body is still arriving when the call has answered (a write sent
        // without waiting) belongs to this call: wait for its body a little, else judge its head.
        const entries = recorded.slice(marked);
        const settled = new Map<number, WitnessChange>();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all(entries.map((entry, i) => entry.whole.then((change) => settled.set(i, change)))),
          new Promise((resolve) => {
            timer = setTimeout(resolve, BODY_WAIT_MS);
          }),
        ]);
        clearTimeout(timer);
        return entries.map((entry, i) => settled.get(i) ?? entry.head);
      },
    },
    stop,
  };
}
