import { describe, expect, test } from 'vitest';
import { apiDeclarations, effectText } from './typed-api.js';

const hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

describe('apiDeclarations', () => {
  test('declares each tool as a method typed from its schemas, with its effects in the doc comment', () => {
    const text = apiDeclarations([
      {
        name: 'notes__search',
        title: 'Search notes',
        description: 'Find notes by words.',
        inputSchema: {
          type: 'object',
          properties: {
            q: { type: 'string', description: 'The words.' },
            limit: { type: 'integer' },
            tags: { type: 'array', items: { type: 'string' } },
            order: { enum: ['new', 'old'] },
          },
          required: ['q'],
        },
        outputSchema: {
          type: 'object',
          properties: { notes: { type: 'array', items: { $ref: '#/$defs/note' } } },
          required: ['notes'],
          $defs: { note: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
        },
        hints,
      },
      {
        name: 'files.delete-all',
        description: 'Delete every file. */ tools.evil();',
        inputSchema: { type: 'object' },
        hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      },
    ]);
    expect(text).toBe(`declare const tools: {
  /**
   * Search notes
   * Find notes by words.
   * Effects: read-only, closed world.
   * Resolves to the structured result; rejects with the tool error.
   */
  notes__search(args: {
    /**
     * The words.
     */
    q: string;
    limit?: number;
    tags?: string[];
    order?: "new" | "old";
  }): Promise<{
    notes: Array<{
      id: string;
    }>;
  }>;
  /**
   * Delete every file. *\\/ tools.evil();
   * Effects: writes (destructive), open world.
   * Resolves to the text result; rejects with the tool error.
   */
  "files.delete-all"(args: Record<string, unknown>): Promise<string>;
};
`);
  });

  test('a self-referencing or very deep schema ends in unknown instead of recursing forever', () => {
    const loop = {
      type: 'object',
      properties: { next: { $ref: '#/$defs/node' } },
      $defs: { node: { $ref: '#/$defs/node' } },
    };
    expect(apiDeclarations([{ name: 't', description: '', inputSchema: loop, hints }])).toContain('next?: unknown;');
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 1_000; i++) deep = { type: 'object', properties: { a: deep } };
    expect(apiDeclarations([{ name: 't', description: '', inputSchema: deep, hints }])).toContain('a?: unknown;');
  });

  test('effectText says what the hints say', () => {
    expect(
      effectText({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
    ).toBe('writes (additive, idempotent), closed world');
  });
});
