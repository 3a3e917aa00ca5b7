/**
 * Glob patterns from a model: refused when they could climb out of the folder
 * they are matched in (`..` segments, absolute patterns), since tinyglobby would
 * otherwise happily walk `../../`.
 */
import { ToolError } from '../../../src/errors.js';

/** Folders nobody wants in search results unless they ask for them. */
export const DEFAULT_IGNORES: readonly string[] = ['**/.git/**', '**/node_modules/**'];

/**
 * Check one glob pattern from a tool call.
 *
 * @example
 * ```ts
 * checkGlobPattern('src/**\/*.ts', 'pattern'); // ok
 * checkGlobPattern('../**', 'pattern'); // throws ToolError
 * ```
 */
export function checkGlobPattern(pattern: string, field: string): void {
  if (pattern.trim() === '') throw new ToolError(`${field} is empty; pass a glob such as "**/*.ts".`);
  if (pattern.includes('\0')) throw new ToolError(`${field} contains a NUL byte.`);
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern)) {
    throw new ToolError(`${field} "${pattern}" is absolute; glob patterns are relative to the folder searched.`);
  }
  if (pattern.split(/[\\/]/).some((segment) => segment === '..')) {
    throw new ToolError(`${field} "${pattern}" contains "..", which would leave the folder searched; refused.`);
  }
}
