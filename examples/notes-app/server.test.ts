import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { lint } from '../../src/lint/lint.js';
import { createNotesServer, NOTES_VIEW_URI } from './index.js';

describe('the notes MCP App', () => {
  it('lists three honestly annotated tools, lint-clean, with the MCP Apps visibility cases', async () => {
    const server = createNotesServer({ notes: ['one'] });
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(server.connectMemory() as never);
    try {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect(byName.get('list_notes')?._meta).toMatchObject({ ui: { resourceUri: NOTES_VIEW_URI } });
      expect(byName.get('list_notes')?.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.get('add_note')?._meta).toMatchObject({ ui: { visibility: ['app'] } });
      expect(byName.get('add_note')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      expect(byName.get('delete_note')?._meta).toMatchObject({ ui: { visibility: ['model'] } });
      expect(byName.get('delete_note')?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
      const result = lint(tools);
      expect(result.errorCount + result.warningCount, JSON.stringify(result.findings)).toBe(0);

      const view = await client.readResource({ uri: NOTES_VIEW_URI });
      expect(view.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
      const added = await client.callTool({ name: 'add_note', arguments: { text: 'two' } });
      expect(added.structuredContent).toMatchObject({
        notes: [
          { id: 1, text: 'one' },
          { id: 2, text: 'two' },
        ],
      });
      const missing = await client.callTool({ name: 'delete_note', arguments: { id: 9 } });
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
