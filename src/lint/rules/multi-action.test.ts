import { describe, expect, it } from 'vitest';
import { lint } from '../lint.js';
import { actionValues } from './multi-action.js';

const ids = (tools: unknown[]) => lint(tools).findings.filter((f) => f.ruleId === 'multi-action-hints');
const withActions = (key: string, values: string[], annotations: Record<string, unknown>) => ({
  name: 'manage_files',
  description: 'Work with files.',
  inputSchema: { type: 'object', properties: { [key]: { type: 'string', enum: values } } },
  annotations,
});

describe('multi-action-hints', () => {
  it('fires when an action enum mixing reads and deletes claims readOnlyHint', () => {
    const [f] = ids([withActions('action', ['list', 'read', 'delete'], { readOnlyHint: true })]);
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain('"delete"');
    expect(f?.patch).toEqual({ readOnlyHint: false, destructiveHint: true });
  });

  it('lowers to a warning when every write action is led by a read verb (a URL to upload to, a result of a create)', () => {
    const [mixed] = ids([
      withActions('action', ['list', 'getUploadUrl', 'describeCreateResult'], { readOnlyHint: true }),
    ]);
    expect(mixed?.severity).toBe('warning');
    // One plain write among them keeps it an error.
    const [plain] = ids([withActions('action', ['list', 'getUploadUrl', 'createBucket'], { readOnlyHint: true })]);
    expect(plain?.severity).toBe('error');
    const [snake] = ids([withActions('action', ['list', 'get_upload_url'], { readOnlyHint: true })]);
    expect(snake?.severity).toBe('warning');
  });

  it('fires when an operation allows delete but destructiveHint is false', () => {
    const [f] = ids([
      withActions('operation', ['get', 'create', 'delete'], { readOnlyHint: false, destructiveHint: false }),
    ]);
    expect(f?.message).toContain('destructiveHint: false');
    expect(f?.patch).toEqual({ destructiveHint: true });
  });

  it('reads actions from a discriminated union of variants', () => {
    const tool = {
      name: 'db',
      inputSchema: {
        type: 'object',
        oneOf: [{ properties: { command: { const: 'query' } } }, { properties: { command: { const: 'drop' } } }],
      },
      annotations: { readOnlyHint: true },
    };
    expect(actionValues(tool.inputSchema).get('command')).toEqual(['query', 'drop']);
    expect(ids([tool])).toHaveLength(1);
  });

  it('treats HTTP methods as actions', () => {
    expect(ids([withActions('method', ['GET', 'POST', 'DELETE'], { readOnlyHint: true })])).toHaveLength(1);
  });

  it('fires on idempotentHint true when an action creates', () => {
    const [f] = ids([
      withActions('action', ['get', 'create'], { readOnlyHint: false, destructiveHint: false, idempotentHint: true }),
    ]);
    expect(f?.patch).toEqual({ idempotentHint: false });
  });

  it('does not fire when the tool advertises its worst action', () => {
    expect(ids([withActions('action', ['list', 'delete'], { readOnlyHint: false, destructiveHint: true })])).toEqual(
      [],
    );
  });

  it('does not fire on an enum of read actions only', () => {
    expect(ids([withActions('mode', ['list', 'search', 'get'], { readOnlyHint: true })])).toEqual([]);
  });

  it('does not fire on enums of non-verbs (output formats)', () => {
    expect(ids([withActions('mode', ['json', 'text', 'fast'], { readOnlyHint: true })])).toEqual([]);
  });

  it('does not take a field of the record a tool creates for its action', () => {
    // The shape of a published server's tool: it saves a request definition; the method is the saved request's.
    const tool = {
      name: 'createCollectionRequest',
      description: 'Creates a request in a collection.',
      inputSchema: {
        type: 'object',
        properties: {
          collectionId: { type: 'string', description: "The collection's ID." },
          method: {
            type: 'string',
            enum: ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'],
            description: "The request's HTTP method.",
          },
        },
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
    };
    expect(ids([tool])).toEqual([]);
    const sends = {
      ...tool,
      inputSchema: {
        type: 'object',
        properties: { method: { ...tool.inputSchema.properties.method, description: 'The HTTP method to send.' } },
      },
    };
    expect(ids([sends]).map((f) => f.ruleId)).toEqual(['multi-action-hints']);
  });

  it('does not look at unrelated parameters with enums', () => {
    expect(ids([withActions('sort', ['created', 'deleted'], { readOnlyHint: true })])).toEqual([]);
  });
});
