import { describe, expect, it } from 'vitest';
import type { ResolvedHints } from '../tool/types.js';
import type { WitnessChange } from './doubles/types.js';
import type { CallRecord, Scene } from './evidence.js';
import { judge, OBSERVE_RULES } from './verdicts.js';

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
});
