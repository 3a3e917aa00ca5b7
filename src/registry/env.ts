/**
 * `TOOL_<NAME>_DISABLED=true` switches a tool off without a rebuild: the name is
 * upper-cased and every character outside [A-Z0-9] becomes `_`.
 */

/**
 * The environment variable that disables a tool.
 *
 * @example
 * ```ts
 * disableVariable('read-file'); // "TOOL_READ_FILE_DISABLED"
 * ```
 */
export function disableVariable(toolName: string): string {
  return `TOOL_${toolName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_DISABLED`;
}

const TRUE_VALUES = new Set(['true', '1', 'yes', 'on']);

/**
 * The variables of `env` that disable some tool, read once, so registering many
 * tools does not compute a variable name per tool when none is set.
 */
export function disablingVariables(env: Readonly<Record<string, string | undefined>>): ReadonlySet<string> {
  const names = new Set<string>();
  for (const [key, value] of Object.entries(env)) {
    if (
      key.startsWith('TOOL_') &&
      key.endsWith('_DISABLED') &&
      value !== undefined &&
      TRUE_VALUES.has(value.trim().toLowerCase())
    ) {
      names.add(key);
    }
  }
  return names;
}

/** The process environment where there is one (the registry also runs outside Node). */
export function processEnv(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}
