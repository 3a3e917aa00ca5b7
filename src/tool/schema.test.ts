import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileSchema } from './schema.js';

describe('compileSchema with zod (memory of 10,000 tools)', () => {
  it('does not leave the ~standard object zod builds on first read on the schema, and still validates', async () => {
    const schema = z.object({ path: z.string() });
    const compiled = compileSchema('t', 'input', schema);
    expect(Object.hasOwn(schema, '~standard')).toBe(false);
    expect(compiled.jsonSchema).toMatchObject({ type: 'object', required: ['path'] });
    expect(await compiled.validate({ path: 'a' })).toEqual({ ok: true, value: { path: 'a' } });
    expect(await compiled.validate({ path: 1 })).toMatchObject({ ok: false, issues: [{ path: ['path'] }] });
  });

  it('keeps a ~standard the schema already had as its own', () => {
    const schema = z.object({ path: z.string() });
    const standard = schema['~standard'];
    compileSchema('t', 'input', schema);
    expect(Object.hasOwn(schema, '~standard')).toBe(true);
    expect(schema['~standard']).toBe(standard);
  });
});
