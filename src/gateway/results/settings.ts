/**
 * Reading result-guard settings from the config (`"results": { "secrets": "block" }`)
 * and from the command line (`--results secrets=block,injection=annotate`).
 */
import type { ResultAction, ResultGuardSettings, ServerResultSettings } from './types.js';

const ACTIONS: readonly ResultAction[] = ['annotate', 'redact', 'block', 'off'];
const KINDS = ['secrets', 'injection'] as const;
// Injected instructions are annotated, withheld or left: there is no redacting them.
const INJECTION_ACTIONS: readonly ResultAction[] = ['annotate', 'block', 'off'];

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
    if (key === 'budgetMs') {
      if (typeof action !== 'number' || !Number.isFinite(action) || action < 1 || action > 60_000)
        return `budgetMs must be a number of milliseconds from 1 to 60000 (got ${JSON.stringify(action)}).`;
      out.budgetMs = action;
      continue;
    }
    if (!(KINDS as readonly string[]).includes(key)) return `unknown key "${key}"; expected "secrets" or "injection".`;
    const allowed = key === 'injection' ? INJECTION_ACTIONS : ACTIONS;
    if (typeof action !== 'string' || !allowed.includes(action as ResultAction))
      return `${key} must be one of ${allowed.map((a) => `"${a}"`).join(', ')} (got ${JSON.stringify(action)})${key === 'injection' && action === 'redact' ? '; redaction removes secrets, and an instruction cut out of a text would leave the rest of it looking trusted' : ''}.`;
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
    if (!(KINDS as readonly string[]).includes(key) && key !== 'budgetMs')
      return { at: '', problem: `unknown key "${key}"; expected "secrets", "injection", "budgetMs" or "tools".` };
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
  const record: Record<string, string | number> = {};
  for (const part of text.split(',')) {
    const [key, action, extra] = part.split('=').map((s) => s.trim());
    if (!key || !action || extra !== undefined)
      return `--results expects kind=action pairs separated by commas, e.g. --results secrets=block,injection=annotate (got "${part}").`;
    if (record[key] !== undefined && String(record[key]) !== action)
      return `--results: ${key} is given twice (${record[key]}, then ${action}); give each kind once.`;
    record[key] = key === 'budgetMs' ? (Number(action) as never) : action;
  }
  const settings = resultSettings(record);
  return typeof settings === 'string' ? `--results: ${settings}` : settings;
}
