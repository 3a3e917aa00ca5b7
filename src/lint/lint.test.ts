import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CandorError } from '../errors.js';
import { defineTool } from '../tool/define.js';
import { lint, validateLintConfig } from './lint.js';
import { profileSettings } from './profiles.js';
import { RULES } from './rules/index.js';

const schema = { type: 'object' };
const deleteFile = {
  name: 'delete_file',
  inputSchema: schema,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
};

describe('lint', () => {
  it('gives every rule an id, a default severity, a summary, an explanation and a unique id', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(['off', 'info', 'warning', 'error']).toContain(rule.severity);
      expect(rule.summary.length).toBeGreaterThan(10);
      expect(rule.explanation.length).toBeGreaterThan(60);
    }
  });

  it('reports nothing about hints for a tool defined with candor effects', () => {
    const tool = defineTool({
      name: 'read_file',
      description: 'Read a UTF-8 text file inside the workspace.',
      input: z.object({ path: z.string().describe('Path relative to the workspace root.') }),
      effect: 'read',
      world: 'closed',
      handler: () => '',
    });
    expect(lint([tool.wire]).findings).toEqual([]);
  });

  it('says so when a candor tool declared nothing', () => {
    const tool = defineTool({ name: 'frobnicate', description: 'Frobnicates the widget.', handler: () => '' });
    const ids = lint([tool.wire]).findings.map((f) => f.ruleId);
    expect(ids).toContain('hints-missing');
  });

  it('counts findings by severity and sorts them by tool, then severity', () => {
    const result = lint([deleteFile, { name: 'a_tool', description: 'Does a thing.', inputSchema: schema }]);
    expect(result.toolCount).toBe(2);
    expect(result.errorCount).toBe(result.findings.filter((f) => f.severity === 'error').length);
    expect(result.findings[0]?.tool).toBe('a_tool');
    const forDelete = result.findings.filter((f) => f.tool === 'delete_file').map((f) => f.severity);
    expect(forDelete).toEqual(
      [...forDelete].sort((a, b) => ['error', 'warning', 'info'].indexOf(a) - ['error', 'warning', 'info'].indexOf(b)),
    );
  });

  it('applies per-rule severities from the config over the profile', () => {
    const result = lint([deleteFile], { rules: { 'name-says-destructive': 'warning', 'title-missing': 'off' } });
    expect(result.findings.find((f) => f.ruleId === 'name-says-destructive')?.severity).toBe('warning');
    expect(result.findings.some((f) => f.ruleId === 'title-missing')).toBe(false);
  });

  it('raises info to warning and warning to error in the strict profile', () => {
    const strict = profileSettings('strict');
    expect(strict['param-description-missing']).toBe('warning');
    expect(strict['title-missing']).toBe('error');
    expect(strict['hints-explicit']).toBe('off');
  });

  it('suppresses findings matched by an ignore, keeping them with the reason', () => {
    const result = lint([deleteFile], {
      ignores: [{ tools: ['delete_*'], rules: ['name-says-destructive'], reason: 'soft delete: rows go to the bin' }],
    });
    expect(result.findings.some((f) => f.ruleId === 'name-says-destructive')).toBe(false);
    expect(result.suppressed).toEqual([
      expect.objectContaining({
        ruleId: 'name-says-destructive',
        tool: 'delete_file',
        reason: 'soft delete: rows go to the bin',
      }),
    ]);
  });

  it('applies an ignore with a server only to that server', () => {
    const ignores = [{ server: 'db', rules: ['name-says-destructive'], reason: 'soft delete' }];
    expect(lint([deleteFile], { ignores, server: 'db' }).suppressed).toHaveLength(1);
    expect(lint([deleteFile], { ignores, server: 'other' }).suppressed).toHaveLength(0);
  });

  it.each([
    [{ ignores: [{ tools: ['x'] }] }, 'has no "reason"'],
    [{ rules: { 'no-such-rule': 'error' } }, 'Unknown lint rule "no-such-rule"'],
    [{ rules: { 'title-missing': 'fatal' } }, 'severity must be one of'],
    [{ profile: 'google' }, 'Unknown lint profile "google"'],
    [{ ignores: [{ rules: ['nope'], reason: 'x' }] }, 'unknown rule "nope"'],
  ])('refuses a bad configuration with a clear message (%j)', (config, message) => {
    expect(() => validateLintConfig(config as never)).toThrow(message);
    expect(() => lint([], config as never)).toThrow(message);
  });

  it('throws a CandorError, not a crash, on input that is not an array', () => {
    let caught: unknown;
    try {
      lint({ tools: [] } as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CandorError);
  });
});
