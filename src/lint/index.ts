/**
 * `candor/lint` (suggested subpath): the lint API, runner, config and reporters.
 * `lint()` itself is pure and also exported from the package root.
 */

export type { LintProgress, LintTargetsOptions, ServerReport } from '../targets/lint-targets.js';
export { lintTargets } from '../targets/lint-targets.js';
export type { LoadedLintConfig } from './config.js';
export { CONFIG_FILE, loadLintConfig } from './config.js';
export { lint, validateLintConfig } from './lint.js';
export { isProfileName, PROFILES, profileSettings } from './profiles.js';
export { formatJson } from './reporters/json.js';
export type { PrettyOptions } from './reporters/pretty.js';
export { formatPretty } from './reporters/pretty.js';
export type { SarifOptions } from './reporters/sarif.js';
export { formatSarif } from './reporters/sarif.js';
export type { LintSummary } from './reporters/summary.js';
export { exitCode, summarise } from './reporters/summary.js';
export { findRule, RULES } from './rules/index.js';
export type {
  Finding,
  LintConfig,
  LintIgnore,
  LintOptions,
  LintResult,
  LintRule,
  ProfileName,
  RuleSetting,
  Severity,
  SuppressedFinding,
} from './types.js';
