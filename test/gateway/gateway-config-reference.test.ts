/**
 * The gateway config reference is generated from the keys' descriptions through the
 * validator itself, and kept in step with it: every key the validator knows is
 * described, every example passes it, every refused value is refused at that key.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/gateway/config.js';
import { ENTRY_KEY_DOCS, GATEWAY_KEY_DOCS } from '../../src/gateway/config-keys.js';
import { gatewayConfigReference, refusalOf } from '../../src/gateway/config-reference.js';

const REPO = path.join(import.meta.dirname, '..', '..');

describe('the gateway config reference', () => {
  it('is the page generated from the keys and the validator, up to date', () => {
    const page = readFileSync(path.join(REPO, 'docs', 'reference', 'gateway-config.md'), 'utf8');
    expect(page, 'run npx tsx scripts/gateway-config-doc.ts').toBe(gatewayConfigReference());
  });

  it('describes exactly the top-level keys the validator accepts', () => {
    expect(GATEWAY_KEY_DOCS.map((d) => d.key).sort()).toEqual([...KEYS].filter((k) => k !== '$schema').sort());
  });

  it('has examples the validator accepts and refused values it refuses at that key', () => {
    for (const [docs, scope] of [
      [GATEWAY_KEY_DOCS, 'top'],
      [ENTRY_KEY_DOCS, 'entry'],
    ] as const) {
      for (const doc of docs) {
        expect(refusalOf(doc, doc.example, scope), doc.key).toBeUndefined();
        if (doc.invalid === undefined) continue;
        const refusal = refusalOf(doc, doc.invalid, scope);
        expect(refusal, doc.key).toMatch(scope === 'top' ? new RegExp(`^${doc.key}\\b`) : /^servers\.memory\b/);
      }
    }
  });

  it('refuses a key it does not describe, naming the keys it knows', () => {
    const refusal = refusalOf({ key: 'polcy', type: '', summary: '', example: 'default' }, 'default', 'top');
    const known = [...KEYS].filter((k) => k !== '$schema');
    expect(refusal).toBe(`polcy: unknown key; did you mean "policy"? Expected one of ${known.join(', ')}.`);
  });
});
