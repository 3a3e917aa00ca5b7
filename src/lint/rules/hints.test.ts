import { describe, expect, it } from 'vitest';
import { lint } from '../lint.js';
import { hintsMissing } from './hints.js';

const schema = { type: 'object' };
const ids = (tools: unknown[], ruleId: string, options = {}) =>
  lint(tools, options).findings.filter((f) => f.ruleId === ruleId);

describe('hints-missing', () => {
  it('fires on a tool with no annotations and suggests the worst case for an unknown verb', () => {
    const [f] = ids([{ name: 'run_command', inputSchema: schema }], 'hints-missing');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toBe('run_command has no annotations, so hosts must assume the worst.');
    // What each absent hint means is explained once, behind `candor lint --explain hints-missing`.
    expect(hintsMissing.explanation).toContain(
      'destructiveHint means every host must treat it as destructive (spec default true)',
    );
    expect(f?.patch).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(f?.fix).toContain('"destructiveHint": true');
  });

  it('fires on a write tool that sets readOnlyHint false but leaves destructiveHint absent (absent is not false)', () => {
    const [f] = ids(
      [{ name: 'create_note', inputSchema: schema, annotations: { readOnlyHint: false, openWorldHint: false } }],
      'hints-missing',
    );
    expect(f?.message).toContain('does not set destructiveHint');
    expect(f?.patch).toEqual({ destructiveHint: false });
  });

  it('suggests only readOnlyHint and openWorldHint for a read tool', () => {
    const [f] = ids([{ name: 'list_files', inputSchema: schema }], 'hints-missing');
    expect(f?.patch).toEqual({ readOnlyHint: true, openWorldHint: false });
  });

  it('does not ask a read-only tool for destructiveHint', () => {
    const tools = [
      { name: 'list_files', inputSchema: schema, annotations: { readOnlyHint: true, openWorldHint: false } },
    ];
    expect(ids(tools, 'hints-missing')).toEqual([]);
  });

  it('does not fire when every applicable hint is explicit', () => {
    const tools = [
      {
        name: 'delete_file',
        inputSchema: schema,
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      },
    ];
    expect(ids(tools, 'hints-missing')).toEqual([]);
  });

  it('treats hints a candor server filled from the spec defaults as missing', () => {
    const tools = [
      {
        name: 'thing',
        inputSchema: schema,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
        _meta: {
          'dev.candor/tool': {
            declaration: 'undeclared',
            defaulted: ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'],
          },
        },
      },
    ];
    const [f] = ids(tools, 'hints-missing');
    expect(f?.message).toBe(
      'thing leaves readOnlyHint, destructiveHint, openWorldHint to the spec defaults candor filled in.',
    );
  });

  it('is an error in the openai and anthropic profiles', () => {
    const tools = [{ name: 'list_files', inputSchema: schema }];
    expect(ids(tools, 'hints-missing', { profile: 'openai' })[0]?.severity).toBe('error');
    expect(ids(tools, 'hints-missing', { profile: 'anthropic' })[0]?.severity).toBe('error');
  });
});

describe('hints-explicit', () => {
  const readTool = {
    name: 'list_files',
    inputSchema: schema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  };

  it('is off in the recommended profile', () => {
    expect(ids([readTool], 'hints-explicit')).toEqual([]);
  });

  it('asks for destructiveHint even on read-only tools in the openai profile', () => {
    const [f] = ids([readTool], 'hints-explicit', { profile: 'openai' });
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain('destructiveHint');
    expect(f?.patch).toEqual({ destructiveHint: false });
  });

  it('does not fire in the openai profile when all three are explicit', () => {
    const tool = { ...readTool, annotations: { ...readTool.annotations, destructiveHint: false } };
    expect(ids([tool], 'hints-explicit', { profile: 'openai' })).toEqual([]);
  });
});

describe('hints-type', () => {
  it('fires on a string hint', () => {
    const [f] = ids([{ name: 'x', inputSchema: schema, annotations: { readOnlyHint: 'true' } }], 'hints-type');
    expect(f?.message).toContain('annotations.readOnlyHint is "true", not a boolean');
    expect(f?.fix).toContain('"readOnlyHint": true');
  });

  it('fires on annotations that are not an object', () => {
    expect(ids([{ name: 'x', inputSchema: schema, annotations: [] }], 'hints-type')).toHaveLength(1);
  });

  it('does not fire on boolean hints', () => {
    expect(
      ids([{ name: 'x', inputSchema: schema, annotations: { readOnlyHint: true, title: 'X' } }], 'hints-type'),
    ).toEqual([]);
  });
});

describe('hints-contradiction', () => {
  it('fires on readOnlyHint and destructiveHint both true, and suggests by the name', () => {
    const [f] = ids(
      [{ name: 'drop_table', inputSchema: schema, annotations: { readOnlyHint: true, destructiveHint: true } }],
      'hints-contradiction',
    );
    expect(f?.severity).toBe('error');
    expect(f?.patch).toEqual({ readOnlyHint: false, destructiveHint: true });
  });

  it('does not fire on a consistent read-only tool', () => {
    const tools = [
      { name: 'get_row', inputSchema: schema, annotations: { readOnlyHint: true, destructiveHint: false } },
    ];
    expect(ids(tools, 'hints-contradiction')).toEqual([]);
  });
});

describe('hints-read-only-extras', () => {
  it('fires on a read-only tool that says idempotentHint false', () => {
    const [f] = ids(
      [{ name: 'get_row', inputSchema: schema, annotations: { readOnlyHint: true, idempotentHint: false } }],
      'hints-read-only-extras',
    );
    expect(f?.severity).toBe('warning');
    expect(f?.patch).toEqual({ idempotentHint: true });
  });

  it('does not fire on the consistent values, which ChatGPT review wants explicit', () => {
    const tools = [
      {
        name: 'get_row',
        inputSchema: schema,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      },
    ];
    expect(ids(tools, 'hints-read-only-extras')).toEqual([]);
  });
});

describe('hints-inferred', () => {
  it('fires on a candor tool whose hints were inferred', () => {
    const tools = [
      { name: 'list_rows', inputSchema: schema, _meta: { 'dev.candor/tool': { declaration: 'inferred' } } },
    ];
    const [f] = ids(tools, 'hints-inferred');
    expect(f?.fix).toContain("effect: 'read'");
  });

  it('does not fire on declared tools', () => {
    const tools = [
      { name: 'list_rows', inputSchema: schema, _meta: { 'dev.candor/tool': { declaration: 'effects' } } },
    ];
    expect(ids(tools, 'hints-inferred')).toEqual([]);
  });
});
