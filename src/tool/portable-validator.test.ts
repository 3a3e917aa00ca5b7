import { describe, expect, test } from 'vitest';
import { portableValidator } from './portable-validator.js';

const schema = Object.freeze({
  type: 'object',
  properties: Object.freeze({
    label: Object.freeze({ type: 'string', maxLength: 5 }),
    n: Object.freeze({ type: 'integer' }),
  }),
  required: Object.freeze(['label']),
  additionalProperties: false,
});

describe('the portable JSON Schema validator', () => {
  test('accepts a valid value and leaves the frozen schema as it was', () => {
    const validate = portableValidator<{ label: string }>(schema);
    expect(validate({ label: 'ok', n: 3 })).toEqual({ ok: true, value: { label: 'ok', n: 3 } });
    expect(Object.keys(schema)).toEqual(['type', 'properties', 'required', 'additionalProperties']);
  });

  test('names the missing property, the bad one, and the unknown one', () => {
    const validate = portableValidator(schema);
    const missing = validate({});
    expect(missing).toMatchObject({ ok: false, issues: [{ path: ['label'], message: 'is required' }] });
    const bad = validate({ label: 'far too long', n: 1.5 });
    expect(bad.ok).toBe(false);
    const paths = bad.ok ? [] : bad.issues.map((issue) => issue.path.join('.'));
    expect(paths).toContain('label');
    expect(paths).toContain('n');
    const unknown = validate({ label: 'ok', extra: 1 });
    expect(unknown.ok).toBe(false);
    expect(
      unknown.ok ? '' : unknown.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('\n'),
    ).toContain('extra');
  });
});
