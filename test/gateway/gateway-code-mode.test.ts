/**
 * Code mode over the wire: a gateway profile with `"toolList": "code"` in front of a
 * real stdio upstream, SDK v2 clients in both eras and an SDK v1 client downstream over
 * Streamable HTTP. Read-only scripts run without a question; a destructive call inside a
 * script asks once (elicitation, or input_required in 2026-07-28) with the script's plan
 * in the question; denial stops the script cleanly and the upstream never runs the call;
 * plan mode refuses the call; one audit record per run holds its calls.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { allowScript as allow, codeModeWire, denyScript as deny, ranCalls } from '../support/code-mode-wire.js';

const wire = codeModeWire('code-mode');
const { startGateway } = wire;
afterAll(() => wire.close());

/** An SDK v2 client, in the 2026-07-28 era when `modern`. */
async function clientV2(url: string, options: { answer?: typeof allow; modern?: boolean } = {}) {
  const client = await wire.connect(options.modern ? 'v2-2026' : 'v2', url, options.answer);
  return { client, asked: client.asked };
}

async function clientV1(url: string, answer: typeof allow) {
  const client = await wire.connect('v1', url, answer);
  return { client, asked: client.asked };
}

const text = (result: { text: string }) => result.text;

const READ_ONLY = `
const first = await tools.notes__read_notes({});
const second = await tools.notes__read_notes({});
return { first, same: JSON.stringify(first) === JSON.stringify(second) };`;

const DESTRUCTIVE = `
const before = await tools.notes__read_notes({});
await tools.notes__delete_notes({});
await tools.notes__delete_notes({});
return 'deleted twice';`;

describe('the code-mode profile', () => {
  test('lists only search_tools, tool_api, run_script and save_script; the full gateway still lists every tool', async () => {
    const { url } = await startGateway();
    const { client } = await clientV2(url);
    const tools = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['run_script', 'save_script', 'search_tools', 'tool_api']);
    const full = await clientV2(url.replace(/\/code$/, ''));
    const names = (await full.client.listTools()).map((t) => t.name);
    expect(names).toContain('notes__delete_notes');
    expect(names).not.toContain('run_script');
    expect(names).not.toContain('save_script');
    const direct = await client.callTool('notes__read_notes', {}).catch((e: Error) => e);
    expect(direct).toBeInstanceOf(Error);
    expect((direct as Error).message).toContain('tool_api');
  });

  test('search_tools finds tools and tool_api declares them with their effects', async () => {
    const { url } = await startGateway();
    const { client } = await clientV2(url);
    const found = await client.callTool('search_tools', { query: 'delete notes' });
    expect(text(found)).toContain('notes__delete_notes');
    const api = text(await client.callTool('tool_api', { tools: ['notes__delete_notes', 'nope'] }));
    expect(api).toContain('declare const tools');
    expect(api).toContain('notes__delete_notes(args:');
    expect(api).toContain('Effects: writes (destructive, idempotent), closed world.');
    expect(api).toContain('Not found here: nope');
  });
});

describe('scripts over the wire', () => {
  for (const era of ['2025', '2026'] as const) {
    test(`SDK v2 (${era} era): a read-only script runs without a question`, async () => {
      const { url, log, audit } = await startGateway();
      const { client, asked } = await clientV2(url, { answer: allow, modern: era === '2026' });
      const result = await client.callTool('run_script', { code: READ_ONLY });
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(text(result))).toEqual({ first: '[]', same: true });
      expect(asked).toEqual([]);
      expect(ranCalls(log)).toEqual(['read_notes', 'read_notes']);
      const run = audit.find((e) => e.tool === 'run_script')!;
      expect(run.outcome).toBe('ok');
      expect(run.calls?.map((c) => [c.tool, c.decision, c.outcome])).toEqual([
        ['notes__read_notes', 'allow', 'ok'],
        ['notes__read_notes', 'allow', 'ok'],
      ]);
      // Script calls are recorded in the run, not as calls of their own.
      expect(audit.filter((e) => e.tool === 'notes__read_notes')).toEqual([]);
    });

    test(`SDK v2 (${era} era): a destructive call asks once, with the plan, and allowing runs the rest`, async () => {
      const { url, log, audit } = await startGateway();
      const { client, asked } = await clientV2(url, { answer: allow, modern: era === '2026' });
      const result = await client.callTool('run_script', { code: DESTRUCTIVE });
      expect(text(result)).toBe('"deleted twice"');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('a script wants to run notes__delete_notes');
      expect(asked[0]).toContain('Calls made so far (1):');
      expect(asked[0]).toContain('notes__read_notes [read-only, closed world]: ok');
      expect(asked[0]).toContain('Allow this script');
      // The 2026 era runs the script again with the answer: its read runs twice.
      expect(ranCalls(log)).toEqual(
        era === '2025'
          ? ['read_notes', 'delete_notes', 'delete_notes']
          : ['read_notes', 'read_notes', 'delete_notes', 'delete_notes'],
      );
      const run = audit.find((e) => e.tool === 'run_script')!;
      expect(run).toMatchObject({ decision: 'ask', decidedBy: 'person', answer: 'allow-once', outcome: 'ok' });
      expect(run.calls?.map((c) => c.tool)).toEqual([
        'notes__read_notes',
        'notes__delete_notes',
        'notes__delete_notes',
      ]);
    });

    test(`SDK v2 (${era} era): denying stops the script with a clean error and the call never runs`, async () => {
      const { url, log, audit } = await startGateway();
      const { client, asked } = await clientV2(url, { answer: deny, modern: era === '2026' });
      const result = await client.callTool('run_script', {
        code: `try { await tools.notes__delete_notes({}); } catch (e) { return 'caught'; }`,
      });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        'The script failed: The person denied this script at notes__delete_notes; it stopped there.',
      );
      expect(asked).toHaveLength(1);
      expect(ranCalls(log)).toEqual([]);
      expect(audit.find((e) => e.tool === 'run_script')).toMatchObject({ outcome: 'denied', failure: 'stopped' });
    });
  }

  test('SDK v1: a destructive call asks once through elicitation/create; denying stops the script', async () => {
    const { url, log } = await startGateway();
    const allowed = await clientV1(url, allow);
    const ok = await allowed.client.callTool('run_script', { code: DESTRUCTIVE });
    expect(text(ok)).toBe('"deleted twice"');
    expect(allowed.asked).toHaveLength(1);
    expect(allowed.asked[0]).toContain('Calls ahead named in the script:');
    const denied = await clientV1(url, deny);
    const refused = await denied.client.callTool('run_script', { code: DESTRUCTIVE });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('denied this script');
    expect(ranCalls(log)).toEqual(['read_notes', 'delete_notes', 'delete_notes', 'read_notes']);
  });

  test('SDK v1: a read-only script runs without a question', async () => {
    const { url } = await startGateway();
    const { client, asked } = await clientV1(url, allow);
    const result = await client.callTool('run_script', { code: READ_ONLY });
    expect(JSON.parse(text(result))).toEqual({ first: '[]', same: true });
    expect(asked).toEqual([]);
  });

  test('plan mode: a destructive tool is not in the API of the script, so its call fails without a question', async () => {
    const { url, log } = await startGateway({ policy: 'plan' });
    const { client, asked } = await clientV2(url, { answer: allow });
    const result = await client.callTool('run_script', {
      code: 'const offered = typeof tools.notes__delete_notes; await tools.notes__read_notes({}); try { await tools.notes__delete_notes({}); return "ran"; } catch (e) { return offered + ": " + e.message; }',
    });
    expect(text(result)).toBe('"undefined: not a function"');
    expect(asked).toEqual([]);
    expect(ranCalls(log)).toEqual(['read_notes']);
  });

  test('a script that throws reports its line; a tool outside the profile is unknown to the script', async () => {
    const { url } = await startGateway({ profiles: { code: { toolList: 'code', readOnly: true } } });
    const { client } = await clientV2(url);
    const thrown = await client.callTool('run_script', { code: 'const a = 1;\n\nnull.x;' });
    expect(thrown.isError).toBe(true);
    expect(text(thrown)).toContain('(script line 3)');
    const outside = await client.callTool('run_script', {
      code: 'return typeof tools.notes__delete_notes + "," + typeof tools.notes__read_notes;',
    });
    expect(text(outside)).toBe('"undefined,function"');
  });

  test('quotas count the calls a script makes: past the quota a call is refused and the upstream never runs it', async () => {
    const { url, log } = await startGateway({
      quotas: [{ tools: ['notes__read_notes'], per: 'all', max: 2, windowMs: 3_600_000 }],
    });
    const { client } = await clientV2(url);
    const result = await client.callTool('run_script', {
      code: `const out = [];
          for (let i = 0; i < 3; i++) {
            try { await tools.notes__read_notes({}); out.push('ok'); } catch (e) { out.push(e.message); }
          }
          return out;`,
    });
    const out = JSON.parse(text(result)) as string[];
    expect(out.slice(0, 2)).toEqual(['ok', 'ok']);
    expect(out[2]).toContain('Quota reached for calls to notes__read_notes');
    expect(ranCalls(log)).toEqual(['read_notes', 'read_notes']);
  });
});
