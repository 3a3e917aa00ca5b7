import { DefinitionError } from '../errors.js';

/** The spec's tool-name pattern (2025-11-25, "Tool names"). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** Refuse a tool name outside the spec's pattern, quoting the rule. */
export function assertToolName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    const shown = typeof name === 'string' ? JSON.stringify(name) : String(name);
    const why =
      typeof name !== 'string'
        ? 'it is not a string'
        : name.length === 0
          ? 'it is empty'
          : name.length > 128
            ? `it is ${name.length} characters long`
            : `it contains ${describeBadCharacters(name)}`;
    throw new DefinitionError(
      `Tool name ${shown} is invalid: ${why}. Tool names must match ^[A-Za-z0-9._-]{1,128}$ (1 to 128 ASCII letters, digits, '_', '-' or '.').`,
      { fields: ['name'] },
    );
  }
}

function describeBadCharacters(name: string): string {
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9._-]/.test(c)))];
  return bad.map((c) => (c === ' ' ? 'a space' : JSON.stringify(c))).join(', ');
}
