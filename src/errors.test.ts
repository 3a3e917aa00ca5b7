import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CandorError, isCandorError, ToolError } from './errors.js';

const src = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every class in src/ that extends another, as child → parent. */
function classParents(): Map<string, string> {
  const parents = new Map<string, string>();
  for (const file of sourceFiles(src)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/class (\w+)(?:<[^>]*>)? extends (\w+)/g)) {
      parents.set(match[1]!, match[2]!);
    }
  }
  return parents;
}

/** The codes of the CandorErrorCode union, read from this file's source. */
function unionCodes(): string[] {
  const text = readFileSync(path.join(src, 'errors.ts'), 'utf8');
  const union = /export type CandorErrorCode =([\s\S]*?'[a-z_]+');/.exec(text)![1]!;
  return [...union.matchAll(/\| '([a-z_]+)'/g)].map((m) => m[1]!);
}

describe('the error family', () => {
  it('has every error class in src/ descend from CandorError, and none extend Error directly', () => {
    const parents = classParents();
    const errorClasses = [...parents.keys()].filter((name) => {
      let at: string | undefined = name;
      for (let hops = 0; at !== undefined && hops < 10; hops++) {
        if (at === 'Error') return true;
        at = parents.get(at);
      }
      return false;
    });
    expect(errorClasses.length).toBeGreaterThan(20);
    const outside = errorClasses.filter((name) => {
      let at: string | undefined = name;
      while (at !== undefined && at !== 'CandorError') at = parents.get(at);
      return at !== 'CandorError';
    });
    expect(outside).toEqual([]);
    expect(parents.get('CandorError')).toBe('Error');
  });

  it('recognises a family member that crossed a module copy by its name and code', () => {
    expect(isCandorError(new ToolError('No such file.', { code: 'not_found' }))).toBe(true);
    expect(isCandorError(new CandorError('x', { code: 'usage' }))).toBe(true);
    expect(isCandorError({ name: 'ToolTimeoutError', code: 'tool_timeout', message: 'late' })).toBe(true);
    expect(isCandorError({ name: 'CliError', code: 'usage', message: 'bad flag' })).toBe(true);
  });

  it('rejects errors that are not candor’s', () => {
    expect(isCandorError(new Error('plain'))).toBe(false);
    expect(isCandorError(Object.assign(new Error('fs'), { code: 'ENOENT' }))).toBe(false);
    expect(isCandorError({ name: 'ToolError' })).toBe(false);
    expect(isCandorError('ToolError')).toBe(false);
    expect(isCandorError(undefined)).toBe(false);
  });

  it('uses only codes of the CandorErrorCode union where src/ names a code for a candor error', () => {
    const codes = new Set(unionCodes());
    const unknown: string[] = [];
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /new (?:CandorError|DefinitionError|CliError|StoreUnavailableError)\([^;]*?code: '([a-z_]+)'/g,
      )) {
        if (!codes.has(m[1]!)) unknown.push(`${path.relative(src, file)}: ${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('documents every code in docs/reference/error-codes.md, and no other', () => {
    const page = readFileSync(path.join(src, '../docs/reference/error-codes.md'), 'utf8');
    const documented = [...page.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(unionCodes());
  });
});
