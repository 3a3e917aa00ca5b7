/** Write docs/reference/gateway-config.md from the gateway config's keys and validator (run by `npm run docs`). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gatewayConfigReference } from '../src/gateway/config-reference.js';

const file = path.join(import.meta.dirname, '..', 'docs', 'reference', 'gateway-config.md');
writeFileSync(file, gatewayConfigReference());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
