import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../errors.js';
import { assertToolName } from './name.js';

describe('tool names', () => {
  it.each(['read_file', 'a', 'ns.tool-v2', 'A'.repeat(128)])('accepts %s', (name) => {
    expect(() => assertToolName(name)).not.toThrow();
  });

  it.each([
    ['', 'it is empty'],
    ['read file', 'a space'],
    ['tool/1', '"/"'],
    ['wérk', '"é"'],
    ['A'.repeat(129), '129 characters'],
  ])('refuses %j, quoting the rule', (name, why) => {
    try {
      assertToolName(name);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DefinitionError);
      expect((error as Error).message).toContain(why);
      expect((error as Error).message).toContain('^[A-Za-z0-9._-]{1,128}$');
    }
  });

  it('refuses a name that is not a string', () => {
    expect(() => assertToolName(42)).toThrow(/not a string/);
  });
});
