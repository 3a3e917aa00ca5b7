/**
 * The public surface is deliberate: what each entry point exports must equal the
 * checked-in report in api/. After a deliberate change, run `npm run api:report`
 * and commit the new report with the reason.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiReport } from '../../scripts/api-report.js';

const api = path.join(import.meta.dirname, '../../api');

describe('the API report', () => {
  const reports = apiReport();

  it('covers every entry point in package.json exports', () => {
    expect([...reports.keys()]).toContain('candor.api.md');
    expect([...reports.keys()]).toContain('candor.protocol.api.md');
  });

  for (const [file, text] of reports) {
    it(`matches api/${file} (run npm run api:report after a deliberate change)`, () => {
      expect(text).toBe(readFileSync(path.join(api, file), 'utf8'));
    });
  }

  it('keeps protocol internals out of the root entry, except the deprecated aliases', () => {
    const root = reports.get('candor.api.md')!;
    for (const name of ['serializeMessage', 'createDispatcher', 'listenHttp', 'createHttpHandler', 'classifyEra']) {
      expect(root).toContain(`- \`${name}\`: const (deprecated)`);
    }
    expect(root).toContain('- `defineTool`: function');
    expect(root).toContain('- `isCandorError`: function');
  });
});
