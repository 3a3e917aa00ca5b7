/** Every lint rule, in report order. */
import type { LintRule } from '../types.js';
import { appRules } from './apps.js';
import { documentationRules } from './documentation.js';
import { hintRules } from './hints.js';
import { multiActionHints } from './multi-action.js';
import { nameRules } from './name-vs-hints.js';
import { namingRules } from './naming.js';
import { hintsSeededDefaults } from './seeded-defaults.js';
import { steeringRules } from './steering.js';

/**
 * All rules candor lint knows, each with its id, default severity, summary and explanation.
 *
 * @example
 * ```ts
 * RULES.find((r) => r.id === 'hints-missing')?.severity; // 'warning'
 * ```
 */
export const RULES: readonly LintRule[] = Object.freeze([
  ...hintRules,
  hintsSeededDefaults,
  ...nameRules,
  multiActionHints,
  ...appRules,
  ...namingRules,
  ...documentationRules,
  ...steeringRules,
]);

/** A rule by id, or undefined. */
export function findRule(id: string): LintRule | undefined {
  return RULES.find((r) => r.id === id);
}
