/**
 * The long text behind each finding: `candor lint --explain RULE` prints it, and the
 * rule reference page in the docs is generated from the rules (and kept in step).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ruleReference } from '../../src/lint/explain.js';
import { findRule, RULES } from '../../src/lint/rules/index.js';
import { OBSERVE_RULES } from '../../src/observe/verdicts.js';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';

beforeAll(() => ensureBuilt(), 120_000);

describe('candor lint --explain', () => {
  it("prints the rule's summary and its explanation", async () => {
    const { code, stdout } = await runCli(['lint', '--explain', 'hints-missing']);
    expect(code).toBe(0);
    const rule = findRule('hints-missing')!;
    expect(stdout).toContain(`hints-missing (default: ${rule.severity})`);
    expect(stdout).toContain(rule.explanation);
  });

  it("explains an observe rule too, since observe's findings are as short", async () => {
    const { code, stdout } = await runCli(['lint', '--explain', 'observe/server-wide-effect']);
    expect(code).toBe(0);
    const rule = OBSERVE_RULES.find((r) => r.id === 'observe/server-wide-effect')!;
    expect(stdout).toContain(`observe/server-wide-effect (default: ${rule.severity})`);
    expect(stdout).toContain(rule.explanation);
  });

  it('suggests the closest rule ids for an unknown one, with exit code 2', async () => {
    const { code, stderr } = await runCli(['lint', '--explain', 'hint-missing']);
    expect(code).toBe(2);
    expect(stderr).toContain('No lint rule "hint-missing". Did you mean hints-missing');
  });

  it('has every rule on the generated reference page, which is up to date', () => {
    const page = readFileSync(path.join(REPO, 'docs', 'reference', 'lint-rules.md'), 'utf8');
    expect(page, 'run npx tsx scripts/lint-rules-doc.ts').toBe(ruleReference({ observeRules: OBSERVE_RULES }));
    for (const rule of RULES) expect(page).toContain(`## ${rule.id}\n`);
    for (const rule of OBSERVE_RULES) expect(page).toContain(`### ${rule.id} {#${rule.id.replace('/', '-')}}\n`);
  });
});
