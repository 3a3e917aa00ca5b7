/**
 * `lint(tools, options)`: run the rules over one server's `tools/list` manifest, apply
 * the profile, per-rule severities and ignores, and count what remains.
 */
import { createRequire } from 'node:module';
import { CandorError } from '../errors.js';
import { normaliseTools } from './manifest.js';
import { isProfileName, PROFILES, profileSettings } from './profiles.js';
import { lintResultOf } from './result.js';
import { findRule, RULES } from './rules/index.js';
import type {
  Finding,
  LintConfig,
  LintIgnore,
  LintOptions,
  LintResult,
  RuleContext,
  RuleSetting,
  Severity,
  SuppressedFinding,
} from './types.js';

const SETTINGS: readonly RuleSetting[] = ['off', 'info', 'warning', 'error'];
const MILDER: Record<Severity, Severity> = { error: 'warning', warning: 'info', info: 'info' };
const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * Lint one server's tools (the `tools` of its `tools/list` result, as sent).
 *
 * @example
 * ```ts
 * const result = lint([{ name: 'delete_file', inputSchema: { type: 'object' }, annotations: { destructiveHint: false } }]);
 * result.findings.map((f) => f.ruleId); // ['hints-missing', 'name-says-destructive', 'title-missing', 'description-missing']
 * ```
 */
export function lint(tools: readonly unknown[], options: LintOptions = {}): LintResult {
  if (!Array.isArray(tools)) {
    throw configError('lint(tools, options) expects the array of tools from a tools/list result.');
  }
  const settings = resolveSettings(options);
  const ignores = checkIgnores(options.ignores);
  const ctx: RuleContext = { tools: normaliseTools(tools) };
  if (options.resources) ctx.resources = new Set(options.resources.map((r) => r.uri));
  if (options.resourceTemplates) ctx.resourceTemplates = options.resourceTemplates.map((t) => t.uriTemplate);
  if (options.otherServers) ctx.otherServers = options.otherServers;

  const findings: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  for (const rule of RULES) {
    const setting = settings[rule.id] ?? rule.severity;
    if (setting === 'off') continue;
    for (const found of rule.check(ctx)) {
      const finding: Finding = {
        ruleId: rule.id,
        severity: found.certainty === 'likely' ? MILDER[setting] : setting,
        ...(found.tool !== undefined ? { tool: found.tool } : {}),
        message: found.message,
        ...(found.fix !== undefined ? { fix: found.fix } : {}),
        ...(found.patch !== undefined ? { patch: found.patch } : {}),
      };
      const ignore = ignores.find((i) => i.matches(finding, options.server));
      if (ignore) suppressed.push({ ...finding, reason: ignore.reason });
      else findings.push(finding);
    }
  }
  // Stable, readable order: by tool (server-wide first), then severity, then rule order.
  const order = new Map(RULES.map((r, i) => [r.id, i]));
  findings.sort(
    (a, b) =>
      (a.tool ?? '').localeCompare(b.tool ?? '') ||
      RANK[a.severity] - RANK[b.severity] ||
      (order.get(a.ruleId) ?? 0) - (order.get(b.ruleId) ?? 0),
  );
  return lintResultOf(findings, suppressed, tools.length);
}

/**
 * Check a lint configuration without linting: throws the same clear error `lint` would
 * (unknown profile or rule, bad severity, an ignore without a reason).
 *
 * @example
 * ```ts
 * validateLintConfig({ rules: { 'title-missing': 'off' } }); // ok
 * validateLintConfig({ ignores: [{ tools: ['x'] }] }); // throws: ignores[0] has no "reason"
 * ```
 */
export function validateLintConfig(config: LintConfig): void {
  resolveSettings(config);
  checkIgnores(config.ignores);
}

/** Profile severities, then the config's per-rule settings, checked. */
function resolveSettings(options: LintConfig): Record<string, RuleSetting> {
  if (options.profile !== undefined && !isProfileName(options.profile)) {
    throw configError(`Unknown lint profile ${JSON.stringify(options.profile)}; use one of ${PROFILES.join(', ')}.`);
  }
  const settings = profileSettings(options.profile);
  for (const [id, setting] of Object.entries(options.rules ?? {})) {
    if (!findRule(id)) {
      throw configError(
        `Unknown lint rule ${JSON.stringify(id)} in "rules"; known rules: ${RULES.map((r) => r.id).join(', ')}.`,
      );
    }
    if (!SETTINGS.includes(setting)) {
      throw configError(
        `Rule ${id}: severity must be one of ${SETTINGS.map((s) => `"${s}"`).join(', ')}; got ${JSON.stringify(setting)}.`,
      );
    }
    settings[id] = setting;
  }
  return settings;
}

/** A lint configuration that cannot be used (unknown rule, bad severity, ignore without a reason). */
function configError(message: string): CandorError {
  return new CandorError(message, { code: 'invalid_lint_config' });
}

interface CompiledIgnore {
  reason: string;
  matches(finding: Finding, server: string | undefined): boolean;
}

/** Validate ignores (a reason is required, eslint-style) and compile their globs. */
function checkIgnores(ignores: readonly LintIgnore[] | undefined): CompiledIgnore[] {
  if (ignores === undefined) return [];
  if (!Array.isArray(ignores)) throw configError('"ignores" must be an array.');
  return ignores.map((ignore, i) => {
    const where = `ignores[${i}]`;
    if (typeof ignore !== 'object' || ignore === null) {
      throw configError(`${where} must be an object { tools?, rules?, server?, reason }.`);
    }
    if (typeof ignore.reason !== 'string' || ignore.reason.trim() === '') {
      throw configError(
        `${where} has no "reason": say why the finding does not apply (it is shown in reports and SARIF suppressions).`,
      );
    }
    for (const id of ignore.rules ?? []) {
      if (!findRule(id)) {
        throw configError(`${where}: unknown rule ${JSON.stringify(id)}.`);
      }
    }
    if (
      ignore.tools !== undefined &&
      !(Array.isArray(ignore.tools) && ignore.tools.every((t: unknown) => typeof t === 'string'))
    ) {
      throw configError(`${where}.tools must be an array of tool names or globs.`);
    }
    const toolMatch = ignore.tools ? picomatch()(ignore.tools) : undefined;
    return {
      reason: ignore.reason,
      matches(finding, server) {
        if (ignore.server !== undefined && ignore.server !== server) return false;
        if (ignore.rules !== undefined && !ignore.rules.includes(finding.ruleId)) return false;
        if (toolMatch && (finding.tool === undefined || !toolMatch(finding.tool))) return false;
        return true;
      },
    };
  });
}

/** picomatch, required when a lint config first names tool globs: a server that lints its own tools at start needs none. */
function picomatch(): typeof import('picomatch') {
  return createRequire(import.meta.url)('picomatch') as typeof import('picomatch');
}
