import { describe, expect, test } from 'vitest';
import { defineTool } from '../tool/define.js';
import { Bm25Index, words } from './bm25.js';

const tool = (name: string, description: string, effect: 'read' | 'additive' | 'destructive' = 'read') =>
  defineTool({ name, description, effect, world: 'closed', handler: () => 'ok' });

describe('BM25 tool search', () => {
  test('words are split, lower-cased, stemmed and stop words dropped', () => {
    expect(words('readFiles from the disk')).toEqual(['read', 'file', 'disk']);
    expect(words('list_directories, searching, indexes')).toEqual(['list', 'directory', 'search', 'index']);
  });

  test('any word may match; a name match outranks a description mention', () => {
    const index = new Bm25Index([
      tool('send_email', 'Send an email message to a recipient.', 'additive'),
      tool('list_folders', 'List the folders; each folder holds email messages.'),
      tool('delete_file', 'Delete a file from disk.', 'destructive'),
    ]);
    const ranked = index.rank('send an email');
    expect(ranked.tools.map((t) => t.name)).toEqual(['send_email', 'list_folders']);
    expect(ranked.total).toBe(2);
  });

  test('a synonym finds the word tool names use ("remove" → delete, "folder" → directory)', () => {
    const index = new Bm25Index([
      tool('delete_file', 'Delete a file.', 'destructive'),
      tool('read_file', 'Read a file.'),
      tool('create_directory', 'Create a directory.', 'additive'),
    ]);
    expect(index.rank('remove a file').tools[0]?.name).toBe('delete_file');
    expect(index.rank('make a folder').tools[0]?.name).toBe('create_directory');
  });

  test('keep filters, top cuts, total counts, and a query of stop words finds nothing', () => {
    const tools = Array.from({ length: 100 }, (_, i) =>
      tool(`note_${String(i).padStart(3, '0')}`, `Note number ${i}.`),
    );
    const index = new Bm25Index(tools);
    const ranked = index.rank('note', { keep: (t) => t.name.endsWith('7'), top: 3 });
    expect(ranked.total).toBe(10);
    expect(ranked.tools.map((t) => t.name)).toEqual(['note_007', 'note_017', 'note_027']);
    expect(index.rank('the of a').total).toBe(0);
    // Repeated queries do not carry scores over.
    expect(index.rank('note', { top: 1 }).tools[0]?.name).toBe('note_000');
  });
});
