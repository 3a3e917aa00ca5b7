/** Write docs/reference/lint-rules.md from the lint and observe rules (run by `npm run docs`). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ruleReference } from '../src/lint/explain.js';
import { OBSERVE_RULES } from '../src/observe/verdicts.js';

const file = path.join(import.meta.dirname, '..', 'docs', 'reference', 'lint-rules.md');
writeFileSync(file, ruleReference({ observeRules: OBSERVE_RULES }));
console.log(`wrote ${path.relative(process.cwd(), file)}`);
