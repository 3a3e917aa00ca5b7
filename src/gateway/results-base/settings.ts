/**
 * Reading result-guard settings from the config (`"results": { "secrets": "block" }`)
 * and from the command line (`--results secrets=block,injection=annotate`).
 */
import type { ResultAction, ResultGuardSettings, ServerResultSettings } from './types.js';

const ACTIONS: readonly ResultAction[] = ['annotate', 'redact', 'block', 'off'];
const KINDS = ['secrets', 'injection'] as const;

/**
 * Check a `results` value; returns the settings, or a sentence saying what is wrong.
 *
 * @example
 * ```ts
 * resultSettings({ secrets: 'block' }); // { secrets: 'block' }
 * resultSettings({ secrets: 'hide' });  // 'secrets must be one of "annotate", "redact", "block", "off" (got "hide").'
 * ```
 */
export function resultSettings(value: unknown): ResultGuardSettings | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'must be an object such as { "secrets": "redact", "injection": "annotate" }.';
  const out: ResultGuardSettings = {};
  for (const [key, action] of Object.entries(value)) {
    if (!(KINDS as readonly string[]).includes(key)) return `unknown key "${key}"; expected "secrets" or "injection".`;
    if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action))
      return `${key} must be one of ${ACTIONS.map((a) => `"${a}"`).join(', ')} (got ${JSON.stringify(action)}).`;
    out[key as (typeof KINDS)[number]] = action as ResultAction;
  }
  return out;
}

/** What is wrong with a server's `results`, and where below it (`""` or `.tools.fetch_*`). */
export interface ResultSettingsProblem {
  at: string;
  problem: string;
}

/**
 * Check a server's `results`: the kinds, plus `tools` (a name or glob per entry, each
 * with kinds of its own). Returns the settings, or what is wrong and where.
 *
 * @example
 * ```ts
 * serverResultSettings({ secrets: 'redact', tools: { 'fetch_*': { injection: 'block' } } });
 * serverResultSettings({ tools: { 'fetch_*': { injection: 'drop' } } });
 * // { at: '.tools.fetch_*', problem: 'injection must be one of … (got "drop").' }
 * ```
 */
export function serverResultSettings(value: unknown): ServerResultSettings | ResultSettingsProblem {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      at: '',
      problem: 'must be an object such as { "secrets": "redact", "tools": { "fetch_*": { "injection": "block" } } }.',
    };
  const { tools, ...kinds } = value as Record<string, unknown>;
  for (const key of Object.keys(kinds))
    if (!(KINDS as readonly string[]).includes(key))
      return { at: '', problem: `unknown key "${key}"; expected "secrets", "injection" or "tools".` };
  const own = resultSettings(kinds);
  if (typeof own === 'string') return { at: '', problem: own };
  if (tools === undefined) return own;
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools))
    return { at: '.tools', problem: 'expected { "<tool name or glob>": { "secrets": "block" } }.' };
  const perTool: Record<string, ResultGuardSettings> = {};
  for (const [glob, settings] of Object.entries(tools)) {
    if (glob.trim() === '') return { at: '.tools', problem: 'a tool name or glob must not be empty.' };
    const checked = resultSettings(settings);
    if (typeof checked === 'string') return { at: `.tools.${glob}`, problem: checked };
    perTool[glob] = checked;
  }
  return { ...own, tools: perTool };
}

/**
 * Parse the command line's `--results kind=action,...`; returns the settings or a sentence saying what is wrong.
 *
 * @example
 * ```ts
 * resultSettingsFlag('secrets=block,injection=off'); // { secrets: 'block', injection: 'off' }
 * ```
 */
export function resultSettingsFlag(text: string): ResultGuardSettings | string {
  const record: Record<string, string> = {};
  for (const part of text.split(',')) {
    const [key, action, extra] = part.split('=').map((s) => s.trim());
    if (!key || !action || extra !== undefined)
      return `--results expects kind=action pairs separated by commas, e.g. --results secrets=block,injection=annotate (got "${part}").`;
    record[key] = action;
  }
  const settings = resultSettings(record);
  return typeof settings === 'string' ? `--results: ${settings}` : settings;
}
