/** Write docs/reference/lint-rules.md from the lint rules (run by `npm run docs`). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ruleReference } from '../src/lint/explain.js';

const file = path.join(import.meta.dirname, '..', 'docs', 'reference', 'lint-rules.md');
writeFileSync(file, ruleReference());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
