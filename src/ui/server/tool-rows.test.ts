import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotesServer } from '../../../examples/notes-app/index.js';
import { createHost } from '../../host/host.js';
import type { Host } from '../../host/host-api.js';
import { ToolTable } from './tool-rows.js';

let host: Host;
const server = createNotesServer();

beforeAll(async () => {
  host = await createHost({ servers: { notes: { transport: server.connectMemory() as never } } });
});
afterAll(async () => {
  await host.close();
  await server.close();
});

describe('ToolTable', () => {
  it('filters with the registry search: words in name, title or description; exact hints; server', () => {
    const table = new ToolTable(host);
    expect(table.rows().map((r) => r.name)).toEqual(['notes__add_note', 'notes__delete_note', 'notes__list_notes']);
    expect(table.rows({ readOnly: true }).map((r) => r.name)).toEqual(['notes__list_notes']);
    expect(table.rows({ destructive: true }).map((r) => r.name)).toEqual(['notes__delete_note']);
    expect(table.rows({ text: 'view button' }).map((r) => r.name)).toEqual(['notes__add_note']);
    expect(table.rows({ server: 'other' })).toEqual([]);
  });

  it('says who may call each tool and which UI it renders', () => {
    const rows = new Map(new ToolTable(host).rows().map((r) => [r.toolName, r]));
    expect(rows.get('add_note')).toMatchObject({ visibility: ['app'], callable: false, defaulted: [] });
    expect(rows.get('delete_note')).toMatchObject({ visibility: ['model'], callable: true });
    expect(rows.get('list_notes')).toMatchObject({ resourceUri: 'ui://notes/view', callable: true, pin: 'unpinned' });
  });

  it('lists lint findings and the schema in the detail', () => {
    const detail = new ToolTable(host).detail('notes__delete_note');
    expect(detail?.inputSchema).toMatchObject({ required: ['id'] });
    expect(Array.isArray(detail?.lint)).toBe(true);
    expect(new ToolTable(host).detail('notes__nope')).toBeUndefined();
  });
});
