import { describe, expect, it } from 'vitest';
import type { ResolvedHints } from '../tool/types.js';
import { Policy } from './policy.js';
import type { CatalogTool, PolicyConfig, PolicyPreset, Trust } from './types.js';

const READ: ResolvedHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const ADD: ResolvedHints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const DESTROY: ResolvedHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

function tool(name: string, hints: ResolvedHints, trust: Trust, extra: Partial<CatalogTool> = {}): CatalogTool {
  const [server, toolName] = name.split('__') as [string, string];
  return {
    name,
    server,
    toolName,
    apiName: name,
    title: toolName,
    description: '',
    inputSchema: { type: 'object' },
    hints,
    hintSources: {
      readOnlyHint: 'server',
      destructiveHint: 'server',
      idempotentHint: 'server',
      openWorldHint: 'server',
    },
    trust,
    declaredBy: 'server',
    requiresUserInteraction: false,
    visibility: ['model', 'app'],
    tags: [],
    hash: 'sha256:0',
    pin: { status: 'unpinned' },
    warnings: [],
    corrections: [],
    wire: { name: toolName },
    ...extra,
  };
}

const decide = (config: PolicyConfig | PolicyPreset, t: CatalogTool) => new Policy(config).decide({ tool: t }).decision;

describe('Policy presets', () => {
  const table: Array<[PolicyPreset, ResolvedHints, Trust, 'allow' | 'ask' | 'deny']> = [
    ['default', READ, 'trusted', 'allow'],
    ['default', READ, 'untrusted', 'ask'],
    ['default', ADD, 'trusted', 'ask'],
    ['default', DESTROY, 'trusted', 'ask'],
    ['confirm-writes', READ, 'trusted', 'allow'],
    ['confirm-writes', ADD, 'trusted', 'ask'],
    ['yolo', DESTROY, 'untrusted', 'allow'],
    ['plan', READ, 'trusted', 'allow'],
    ['plan', READ, 'untrusted', 'ask'],
    ['plan', ADD, 'trusted', 'deny'],
    ['plan', DESTROY, 'untrusted', 'deny'],
  ];
  for (const [preset, hints, trust, expected] of table) {
    const kind = hints === READ ? 'read-only' : hints === ADD ? 'additive' : 'destructive';
    it(`${preset}: a ${kind} tool of a ${trust} server → ${expected}`, () => {
      expect(decide(preset, tool('s__t', hints, trust))).toBe(expected);
    });
  }

  it('refuses an unknown preset with the list of presets', () => {
    expect(() => new Policy('fast' as PolicyPreset)).toThrow(/'default', 'confirm-writes', 'yolo', 'plan'/);
  });
});

describe('Policy rules', () => {
  it('lets deny beat ask beat allow among matching rules', () => {
    const rules: PolicyConfig['rules'] = [
      { decision: 'allow', tools: 's__*' },
      { decision: 'ask', tools: '*__t' },
      { decision: 'deny', servers: 's' },
    ];
    expect(decide({ rules }, tool('s__t', READ, 'trusted'))).toBe('deny');
    expect(decide({ rules: rules.slice(0, 2) }, tool('s__t', READ, 'trusted'))).toBe('ask');
  });

  it('applies deny rules in yolo', () => {
    expect(
      decide({ preset: 'yolo', rules: [{ decision: 'deny', tools: '*__rm' }] }, tool('s__rm', DESTROY, 'trusted')),
    ).toBe('deny');
  });

  it('lets a name rule allow an additive write, but never a destructive one in default', () => {
    const rules: PolicyConfig['rules'] = [{ decision: 'allow', tools: 's__*' }];
    expect(decide({ rules }, tool('s__add', ADD, 'untrusted'))).toBe('ask'); // untrusted: may be destructive
    expect(decide({ rules }, tool('s__add', ADD, 'trusted'))).toBe('allow');
    expect(decide({ rules }, tool('s__rm', DESTROY, 'trusted'))).toBe('ask');
  });

  it('ignores hint and tag allow rules for untrusted tools, but applies their ask and deny rules', () => {
    const allowReads: PolicyConfig = { rules: [{ decision: 'allow', hints: { readOnlyHint: true } }] };
    expect(decide(allowReads, tool('s__r', READ, 'untrusted'))).toBe('ask');
    const tagged = tool('s__w', ADD, 'untrusted', { tags: ['safe'] });
    expect(decide({ rules: [{ decision: 'allow', tags: ['safe'] }] }, tagged)).toBe('ask');
    expect(decide({ rules: [{ decision: 'deny', tags: ['safe'] }] }, tagged)).toBe('deny');
    const askReads: PolicyConfig = { rules: [{ decision: 'ask', hints: { readOnlyHint: true } }] };
    expect(decide(askReads, tool('s__r', READ, 'trusted'))).toBe('ask');
  });

  it('always asks for tools that require user interaction, even in yolo, and never remembers', () => {
    const t = tool('s__sign', READ, 'trusted', { requiresUserInteraction: true });
    const verdict = new Policy('yolo').decide({ tool: t });
    expect(verdict).toMatchObject({ decision: 'ask', canRemember: false });
  });

  it('treats a gated command that only reads as a vouched read, and one that writes as a never-remembered ask', () => {
    const shell = tool('s__sh', DESTROY, 'untrusted');
    const policy = new Policy('default');
    expect(policy.decide({ tool: shell, command: { decision: 'allow', reasons: [], commands: ['ls'] } }).decision).toBe(
      'allow',
    );
    const asked = policy.decide({
      tool: shell,
      command: { decision: 'ask', reasons: ['rm is not…'], commands: ['rm'] },
    });
    expect(asked).toMatchObject({ decision: 'ask', canRemember: false });
    expect(
      new Policy('plan').decide({ tool: shell, command: { decision: 'ask', reasons: ['x'], commands: [] } }).decision,
    ).toBe('deny');
  });

  it('hides in plan mode what it would refuse, and hides what a deny rule matches', () => {
    expect(new Policy('plan').lists(tool('s__w', ADD, 'trusted'), { commandGated: false })).toBe(false);
    expect(new Policy('plan').lists(tool('s__sh', ADD, 'trusted'), { commandGated: true })).toBe(true);
    expect(
      new Policy({ rules: [{ decision: 'deny', tools: 's__r' }] }).lists(tool('s__r', READ, 'trusted'), {
        commandGated: false,
      }),
    ).toBe(false);
  });

  it('refuses a rule without a valid decision', () => {
    expect(() => new Policy({ rules: [{ decision: 'maybe' as 'allow' }] })).toThrow(/rule #1/);
  });
});
