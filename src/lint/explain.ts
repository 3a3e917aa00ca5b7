/**
 * The long text behind a finding: `candor lint --explain RULE` prints it, and the
 * rule reference page of the docs is generated from the same rules. A finding's own
 * message stays one short sentence; the why lives here.
 */
import { RULES } from './rules/index.js';
import type { LintRule } from './types.js';

/** What explaining a rule needs: lint's rules and observe's have these in common. */
export type ExplainedRule = Pick<LintRule, 'id' | 'severity' | 'summary' | 'explanation'>;

/** Options of {@link ruleReference}. */
export interface RuleReferenceOptions {
  /** The lint rules (default: all of them). */
  rules?: readonly ExplainedRule[];
  /** Rules of `candor observe`, listed in their own section (lint does not import observe). */
  observeRules?: readonly ExplainedRule[];
}

/**
 * One rule explained in plain text: id, default severity, what it checks and why.
 *
 * @example
 * ```ts
 * explainRule(findRule('hints-missing')!);
 * ```
 */
export function explainRule(rule: ExplainedRule): string {
  return `${rule.id} (default: ${rule.severity})\n\n${rule.summary}\n\n${rule.explanation}\n`;
}

// Prose, not HTML: a literal "<IMPORTANT>" in an explanation must not become a tag on the page.
const text = (value: string) => value.replaceAll('<', '&lt;').replaceAll('{{', '&#123;&#123;');
const anchor = (id: string) => id.replace(/[^a-z0-9-]+/g, '-');

function table(rules: readonly ExplainedRule[]): string[] {
  return [
    '| Rule | Default | Checks |',
    '|---|---|---|',
    ...rules.map(
      (rule) =>
        `| [\`${rule.id}\`](#${anchor(rule.id)}) | ${rule.severity} | ${text(rule.summary).replace(/\|/g, '\\|')} |`,
    ),
    '',
  ];
}

function sections(rules: readonly ExplainedRule[], level: string): string[] {
  return rules.flatMap((rule) => [
    `${level} ${rule.id}${anchor(rule.id) === rule.id ? '' : ` {#${anchor(rule.id)}}`}`,
    '',
    `Default severity: **${rule.severity}**. ${text(rule.summary)}`,
    '',
    text(rule.explanation),
    '',
  ]);
}

/**
 * The rule reference page (Markdown), generated from the rules.
 *
 * @example
 * ```ts
 * writeFileSync('docs/reference/lint-rules.md', ruleReference({ observeRules: OBSERVE_RULES }));
 * ```
 */
export function ruleReference({ rules = RULES, observeRules = [] }: RuleReferenceOptions = {}): string {
  const lines = [
    '# Lint rules',
    '',
    '<!-- Generated from src/lint/rules and src/observe/verdicts.ts by scripts/lint-rules-doc.ts (npm run docs); do not edit. -->',
    '',
    `${rules.length} rules. Each finding's message is one short sentence; \`candor lint --explain RULE\` prints the text below.`,
    '',
    ...table(rules),
    ...sections(rules, '##'),
  ];
  if (observeRules.length > 0) {
    lines.push(
      '## Observe rules',
      '',
      `\`candor observe\` holds what a tool did against its hints with ${observeRules.length} rules; \`candor lint --explain RULE\` explains these too.`,
      '',
      ...table(observeRules),
      ...sections(observeRules, '###'),
    );
  }
  return lines.join('\n');
}
