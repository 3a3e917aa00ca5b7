import { describe, expect, it } from 'vitest';
import type { ResolvedHints } from '../tool/types.js';
import type { WitnessChange } from './doubles/types.js';
import type { CallRecord, Scene } from './evidence.js';
import { judge, judgeServer, OBSERVE_RULES } from './verdicts.js';

const scene: Scene = { work: '/w', home: '/h', tmp: '/t', initial: new Set(), doubles: ['https-api'] };
const READ: ResolvedHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const WRITER: ResolvedHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};
const patch: WitnessChange = {
  kind: 'request',
  method: 'PATCH',
  host: 'api.example.test',
  path: '/v1/p/1',
  read: false,
};
const get: WitnessChange = { kind: 'request', method: 'GET', host: 'api.example.test', path: '/v1/p/1', read: true };

const call = (ok: boolean, changes: WitnessChange[]): CallRecord => ({
  args: {},
  ok,
  effects: [],
  diff: { created: [], modified: [], deleted: [] },
  ...(ok ? { answer: '{"id":1}' } : { error: 'the API answered 500' }),
  changes,
});

describe('judge with the API double', () => {
  it('lists the request rules among the observe rules', () => {
    expect(OBSERVE_RULES.map((r) => r.id)).toEqual(
      expect.arrayContaining(['observe/read-only-sent-write', 'observe/closed-world-requested']),
    );
  });

  it('holds a write request against a read-only tool even when every call failed after sending it', () => {
    const findings = judge('get_project', READ, [call(false, [patch]), call(false, [patch])], scene);
    expect(findings.map((f) => [f.ruleId, f.severity])).toEqual([['observe/read-only-sent-write', 'error']]);
    expect(findings[0]!.evidence).toEqual(['sent PATCH https://api.example.test/v1/p/1 (a write)']);
  });

  it('counts a write request as an effect, so a destructive tool that sent one is not "no effect"', () => {
    expect(judge('update_project', WRITER, [call(true, [patch]), call(true, [patch])], scene)).toEqual([]);
    const reads = judge('update_project', WRITER, [call(true, [get]), call(true, [get])], scene);
    expect(reads.map((f) => f.ruleId)).toEqual(['observe/destructive-no-effect']);
  });

  it("reports a request every called tool sends (a usage event) once for the server, not as each tool's", () => {
    const event: WitnessChange = {
      kind: 'request',
      method: 'POST',
      host: 'api.example.test',
      path: '/sdk/v1/event',
      read: false,
    };
    const own = (id: number): WitnessChange => ({ ...get, path: `/v1/items/${id}` });
    const CLOSED_READ = { ...READ, openWorldHint: false };
    const tools = [1, 2, 3, 4].map((id) => ({
      name: `get_item_${id}`,
      hints: CLOSED_READ,
      // The event goes out before the tool runs, whether the call then works or not.
      calls: [call(id !== 4, [event, own(id)]), call(id !== 4, [event, own(id)])],
    }));
    const server = judgeServer(tools, scene);
    expect(server.findings.map((f) => [f.ruleId, f.severity])).toEqual([['observe/server-wide-effect', 'error']]);
    expect(server.findings[0]!.message).toContain(
      'readOnlyHint: true on get_item_1, get_item_2, get_item_3, get_item_4',
    );
    expect(server.findings[0]!.evidence).toEqual(['sent POST https://api.example.test/sdk/v1/event (a write)']);
    // Each tool is judged on its own requests: the GET of its item is a read, but the world is still not closed.
    const mine = judge('get_item_1', CLOSED_READ, tools[0]!.calls, scene, server.lines);
    expect(mine.map((f) => f.ruleId)).toEqual(['observe/closed-world-requested']);
    expect(mine[0]!.evidence).toEqual(['sent GET https://api.example.test/v1/items/1 (a read)']);
  });

  it("keeps a request only some tools send as those tools' own", () => {
    const tools = [1, 2, 3, 4].map((id) => ({
      name: `t${id}`,
      hints: READ,
      calls: [call(true, id === 1 ? [patch] : [{ ...get, path: `/v1/items/${id}` }])],
    }));
    const server = judgeServer(tools, scene);
    expect(server.findings.filter((f) => f.ruleId === 'observe/server-wide-effect')).toEqual([]);
    expect(judge('t1', READ, tools[0]!.calls, scene, server.lines).map((f) => f.ruleId)).toEqual([
      'observe/read-only-sent-write',
    ]);
  });

  it("keeps a request most tools send for their own work (one answer endpoint) as each tool's, and lowers a doubtful one", () => {
    const ask: WitnessChange = {
      kind: 'request',
      method: 'POST',
      host: 'api.example.test',
      path: '/v1/agent',
      read: 'ambiguous',
    };
    const tools = [1, 2, 3, 4].map((id) => ({
      name: `ask_${id}`,
      hints: READ,
      calls: [call(true, id === 4 ? [] : [ask])],
    }));
    const server = judgeServer(tools, scene);
    expect(server.findings).toEqual([]);
    const mine = judge('ask_1', READ, tools[0]!.calls, scene, server.lines);
    expect(mine.map((f) => [f.ruleId, f.severity])).toEqual([['observe/read-only-sent-write', 'warning']]);
    // Sent by every tool, it is the server's, and still only a warning: doubt never raises a finding.
    const all = tools.map((t) => ({ ...t, calls: [call(true, [ask])] }));
    expect(judgeServer(all, scene).findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['observe/server-wide-effect', 'warning'],
    ]);
  });
});
