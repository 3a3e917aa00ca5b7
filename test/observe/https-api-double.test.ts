/**
 * The HTTPS API double over the real sandbox: a server in bwrap reaches
 * https://api.example-saas.test through the generated /etc/hosts, the bridge's route on
 * 443 and TLS verified against the run's CA; the witness records each request, the
 * request rules catch the tools that lie, and no credential lands in any change.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsApiDouble } from '../../src/observe/doubles/https-api.js';
import type { StartedDouble, WitnessChange } from '../../src/observe/doubles/types.js';
import { judgeRequests } from '../../src/observe/request-rules.js';
import type { ResolvedHints } from '../../src/tool/types.js';
import { sandboxWithDoubles } from '../support/double-sandbox.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/observe/saas-server.mjs', import.meta.url));
const HOST = 'api.example-saas.test';

describe('the HTTPS API double in the sandbox', () => {
  let api: StartedDouble;
  let boxed: Awaited<ReturnType<typeof sandboxWithDoubles>>;
  let hints: Map<string, ResolvedHints>;
  const seen: WitnessChange[] = [];

  beforeAll(async () => {
    api = await startHttpsApiDouble({ dir: await mkdtemp(path.join(tmpdir(), 'candor-https-double-')), hosts: [HOST] });
    boxed = await sandboxWithDoubles({ name: 'saas', command: process.execPath, args: [FIXTURE], doubles: [api] });
    const { tools } = await boxed.client.listTools();
    hints = new Map(
      tools.map((t) => [
        t.name,
        {
          readOnlyHint: t.annotations?.readOnlyHint ?? false,
          destructiveHint: t.annotations?.destructiveHint ?? true,
          idempotentHint: t.annotations?.idempotentHint ?? false,
          openWorldHint: t.annotations?.openWorldHint ?? true,
        },
      ]),
    );
  }, 60_000);

  afterAll(async () => {
    await boxed?.close();
    await api?.stop();
  });

  /** Call a tool, check the API answered over verified TLS, and judge its requests. */
  async function judged(tool: string) {
    const call = await boxed.call(tool);
    seen.push(...call.changes);
    expect(call.isError, `${tool}: ${call.text}\n${boxed.stderr()}`).toBe(false);
    return { call, findings: judgeRequests(tool, hints.get(tool)!, call.changes) };
  }

  it('runs the server without switching TLS verification off', () => {
    expect(boxed.sandbox.args.join(' ')).not.toContain('NODE_TLS_REJECT_UNAUTHORIZED');
    expect(api.env.NODE_EXTRA_CA_CERTS).toMatch(/ca\.pem$/);
  });

  it('catches a read-only tool that PATCHes the API', async () => {
    const { call, findings } = await judged('get_project');
    expect(call.text).toMatch(/^200 \{"id":1,/);
    expect(call.changes).toEqual([
      { kind: 'request', method: 'PATCH', host: HOST, path: '/v1/projects/1', read: false },
    ]);
    expect(findings.map((f) => [f.ruleId, f.severity])).toEqual([['observe/read-only-sent-write', 'error']]);
  });

  it('finds nothing wrong with its twin that GETs', async () => {
    const { call, findings } = await judged('get_project_honest');
    expect(JSON.parse(call.text.slice(4))).toMatchObject({ id: 1, name: 'project 1' });
    expect(call.changes).toEqual([{ kind: 'request', method: 'GET', host: HOST, path: '/v1/projects/1', read: true }]);
    expect(findings).toEqual([]);
  });

  it('catches a "list" tool that runs a GraphQL mutation', async () => {
    const { call, findings } = await judged('list_items');
    expect(call.changes).toEqual([
      { kind: 'request', method: 'POST', host: HOST, path: '/graphql', operation: 'mutation', read: false },
    ]);
    expect(JSON.parse(call.text.slice(4))).toMatchObject({ data: { touchItems: { count: 1 } } });
    expect(findings.map((f) => f.ruleId)).toEqual(['observe/read-only-sent-write']);
    expect(findings[0]!.evidence).toEqual([`sent POST https://${HOST}/graphql (a GraphQL mutation)`]);
  });

  it('answers a GraphQL query shaped from its selection set, and finds nothing wrong with it', async () => {
    const { call, findings } = await judged('list_items_honest');
    expect(JSON.parse(call.text.slice(4))).toEqual({
      data: {
        items: {
          nodes: [
            { id: 'id-1', name: 'name 1', createdAt: '2026-01-01T00:00:00Z' },
            { id: 'id-2', name: 'name 2', createdAt: '2026-01-01T00:00:00Z' },
          ],
          pageInfo: { hasNextPage: false },
        },
      },
    });
    expect(call.changes[0]).toMatchObject({ operation: 'query', read: true });
    expect(findings).toEqual([]);
  });

  it('reads a search by POST as a read', async () => {
    const { call, findings } = await judged('search_items');
    expect(call.changes).toEqual([
      { kind: 'request', method: 'POST', host: HOST, path: '/v1/items/search', read: true },
    ]);
    expect(findings).toEqual([]);
  });

  it('catches an openWorldHint: false tool that calls the API', async () => {
    const { findings } = await judged('count_local');
    expect(findings.map((f) => f.ruleId)).toEqual(['observe/closed-world-requested']);
  });

  it('holds nothing against a tool that says it writes and writes', async () => {
    const { call, findings } = await judged('create_item');
    expect(call.text).toMatch(/^201 /);
    expect(findings).toEqual([]);
  });

  it('keeps no credential in any recorded change', () => {
    expect(seen.length).toBeGreaterThanOrEqual(7);
    const recorded = JSON.stringify(seen);
    for (const secret of ['sk_live_fixture_secret_4f9a2b7c', 'qs_fixture_secret_8d1e', 'Bearer', 'token', '?']) {
      expect(recorded).not.toContain(secret);
    }
  });
});
