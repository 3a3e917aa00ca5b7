/**
 * Profiles: named sets of severities over the rules' defaults (`recommended`).
 * - `strict`: info becomes warning, warning becomes error; rules that belong to one host's
 *   directory (`hints-explicit`) stay off.
 * - `openai`: ChatGPT app review: readOnlyHint, destructiveHint, openWorldHint explicit on every tool.
 * - `anthropic`: Claude's directory: a title, the applicable hints, names of at most 64 characters.
 */
import { RULES } from './rules/index.js';
import type { ProfileName, RuleSetting } from './types.js';

export const PROFILES: readonly ProfileName[] = ['recommended', 'strict', 'openai', 'anthropic'];

const OVERRIDES: Record<Exclude<ProfileName, 'strict'>, Record<string, RuleSetting>> = {
  recommended: {},
  openai: { 'hints-explicit': 'error', 'hints-missing': 'error' },
  anthropic: { 'title-missing': 'error', 'hints-missing': 'error', 'name-length': 'error' },
};

const RAISE: Record<RuleSetting, RuleSetting> = { off: 'off', info: 'warning', warning: 'error', error: 'error' };

/**
 * The severity of every rule under a profile.
 *
 * @example
 * ```ts
 * profileSettings('openai')['hints-explicit']; // 'error'
 * profileSettings('recommended')['hints-explicit']; // 'off'
 * ```
 */
export function profileSettings(profile: ProfileName = 'recommended'): Record<string, RuleSetting> {
  const settings: Record<string, RuleSetting> = {};
  for (const rule of RULES) {
    settings[rule.id] = profile === 'strict' ? RAISE[rule.severity] : (OVERRIDES[profile][rule.id] ?? rule.severity);
  }
  return settings;
}

/** True for a known profile name. */
export function isProfileName(value: unknown): value is ProfileName {
  return typeof value === 'string' && (PROFILES as readonly string[]).includes(value);
}
