/**
 * Reading result-guard settings from the config (`"results": { "secrets": "block" }`)
 * and from the command line (`--results secrets=block,injection=annotate`).
 */
import type { ResultAction, ResultGuardSettings } from './types.js';

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
