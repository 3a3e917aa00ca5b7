/**
 * The long text behind a finding: `candor lint --explain RULE` prints it, and the
 * rule reference page of the docs is generated from the same rules.
 */
import { RULES } from './rules/index.js';
import type { LintRule } from './types.js';

/**
 * One rule explained in plain text: id, default severity, what it checks and why.
 *
 * @example
 * ```ts
 * explainRule(findRule('hints-missing')!);
 * ```
 */
export function explainRule(rule: LintRule): string {
  return `${rule.id} (default: ${rule.severity})\n\n${rule.summary}\n\n${rule.explanation}\n`;
}

/**
 * The rule reference page (Markdown), generated from the rules.
 *
 * @example
 * ```ts
 * writeFileSync('docs/reference/lint-rules.md', ruleReference());
 * ```
 */
export function ruleReference(rules: readonly LintRule[] = RULES): string {
  // Prose, not HTML: a literal "<IMPORTANT>" in an explanation must not become a tag on the page.
  const text = (value: string) => value.replaceAll('<', '&lt;').replaceAll('{{', '&#123;&#123;');
  const lines = [
    '# Lint rules',
    '',
    '<!-- Generated from src/lint/rules by scripts/lint-rules-doc.ts (npm run docs); do not edit. -->',
    '',
    `${rules.length} rules. Each finding's message is one line; \`candor lint --explain RULE\` prints the text below.`,
    '',
    '| Rule | Default | Checks |',
    '|---|---|---|',
    ...rules.map(
      (rule) => `| [\`${rule.id}\`](#${rule.id}) | ${rule.severity} | ${text(rule.summary).replace(/\|/g, '\\|')} |`,
    ),
    '',
  ];
  for (const rule of rules) {
    lines.push(
      `## ${rule.id}`,
      '',
      `Default severity: **${rule.severity}**. ${text(rule.summary)}`,
      '',
      text(rule.explanation),
      '',
    );
  }
  return lines.join('\n');
}
