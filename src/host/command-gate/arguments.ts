/**
 * Arguments as the gate sees them, and the flag checks shared by the command
 * rules. Flags are matched the way the programs read them: GNU long options
 * by unambiguous prefix (`--out` is `--output`), short options inside clusters
 * (`-uo` holds `-o`), find-style single-dash words exactly.
 */

/** One argument after quote removal. `glob` marks unquoted `*`, `?`, `[` or brace expansion. */
export interface Arg {
  value: string;
  glob: boolean;
}

/** What makes a command unsafe, beyond its name. */
export interface CommandRule {
  /** Short option letters that write or run something (checked inside clusters like `-uo`). */
  short?: string;
  /** Long options that write or run something; abbreviations count (`--in` is `--in-place`). */
  long?: readonly string[];
  /** Single-dash words matched exactly, find style (`-delete`, `-exec`). */
  exact?: readonly string[];
  /** At most this many operands (`uniq in out` writes `out`). */
  maxOperands?: number;
  /** A custom check; returns why the arguments are unsafe. */
  check?: (args: readonly Arg[]) => string | undefined;
}

/**
 * Check arguments against a rule; returns why they are unsafe, or `undefined`.
 *
 * @example
 * ```ts
 * unsafeArguments('sort', { short: 'o', long: ['--output'] }, [{ value: '-uo', glob: false }]); // 'sort -o writes …'
 * ```
 */
export function unsafeArguments(command: string, rule: CommandRule, args: readonly Arg[]): string | undefined {
  const flagsMatter = rule.short !== undefined || rule.long !== undefined || rule.exact !== undefined;
  let operands = 0;
  let afterDoubleDash = false;
  for (const arg of args) {
    if (arg.glob && !afterDoubleDash && (flagsMatter || rule.maxOperands !== undefined)) {
      return `${command}: the glob ${arg.value} could expand to an option or to extra operands`;
    }
    const value = arg.value;
    if (afterDoubleDash || value === '-' || !value.startsWith('-')) {
      operands++;
      continue;
    }
    if (value === '--') {
      afterDoubleDash = true;
      continue;
    }
    const bad = dangerousFlag(value, rule);
    if (bad) return `${command} ${bad} writes files or runs commands`;
  }
  if (rule.check) {
    const custom = rule.check(args);
    if (custom) return custom;
  }
  if (rule.maxOperands !== undefined && operands > rule.maxOperands) {
    return `${command} with ${operands} operands may write or change something (at most ${rule.maxOperands} is read-only)`;
  }
  return undefined;
}

/** The dangerous flag an argument holds, if any. */
export function dangerousFlag(value: string, rule: CommandRule): string | undefined {
  if (rule.exact?.includes(value)) return value;
  if (value.startsWith('--')) {
    const name = value.split('=', 1)[0]!;
    if (name.length > 2 && rule.long?.some((option) => option.startsWith(name))) return name;
    return undefined;
  }
  if (rule.exact && value.length > 2) return undefined; // find-style words are matched exactly above
  for (const letter of value.slice(1)) {
    if (rule.short?.includes(letter)) return `-${letter}`;
  }
  return undefined;
}

/** The operands of an argument list (non-options, and everything after `--`). */
export function operandsOf(args: readonly Arg[]): Arg[] {
  const result: Arg[] = [];
  let afterDoubleDash = false;
  for (const arg of args) {
    if (afterDoubleDash || arg.value === '-' || !arg.value.startsWith('-')) result.push(arg);
    else if (arg.value === '--') afterDoubleDash = true;
  }
  return result;
}
