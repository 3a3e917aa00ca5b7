/** Write docs/reference/cli.md from the CLI's command definitions (run by `npm run docs`). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildProgram } from '../src/cli/program.js';
import { cliReference } from '../src/cli/reference.js';

const file = path.join(import.meta.dirname, '..', 'docs', 'reference', 'cli.md');
writeFileSync(file, cliReference(await buildProgram(['node', 'candor'])));
console.log(`wrote ${path.relative(process.cwd(), file)}`);
