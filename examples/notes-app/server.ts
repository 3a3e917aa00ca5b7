/**
 * The notes app: a small MCP App (SEP-1865) built with candor's own
 * `defineTool`, `defineResource` and `createServer`. Its tools are the three
 * cases of the MCP Apps annotation guidance:
 * - `list_notes`: read-only, model-visible, renders the View `ui://notes/view`;
 * - `add_note`: the View's write helper, app-only (`visibility: ['app']`) and
 *   still honestly annotated (additive: annotations apply to app-only tools too);
 * - `delete_note`: destructive and model-only: a View may not call it.
 */
import { z } from 'zod';
import { ToolError } from '../../src/errors.js';
import { defineResource } from '../../src/resources/define.js';
import { type CandorServer, createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import type { ToolDefinition } from '../../src/tool/types.js';
import { NoteStore } from './store.js';
import { NOTES_VIEW_HTML } from './view.js';

/** The View's resource URI. */
export const NOTES_VIEW_URI = 'ui://notes/view';

/** Options of `createNotesServer`. */
export interface NotesServerOptions {
  /** The notes the server starts with (default: two sample notes). */
  notes?: readonly string[];
}

/**
 * The notes app's tools over one store.
 *
 * @example
 * ```ts
 * const tools = createNotesTools(new NoteStore(['buy milk']));
 * ```
 */
export function createNotesTools(store: NoteStore): ToolDefinition[] {
  const listed = () => {
    const notes = store.list();
    return {
      content: [
        {
          type: 'text' as const,
          text: notes.length === 0 ? 'No notes.' : notes.map((n) => `#${n.id} ${n.text}`).join('\n'),
        },
      ],
      structuredContent: { notes },
    };
  };
  return [
    defineTool({
      name: 'list_notes',
      title: 'List Notes',
      description: 'List every note (id, text, creation time). Renders the notes View in hosts that support MCP Apps.',
      input: z.object({}),
      effect: 'read',
      world: 'closed',
      tags: ['notes'],
      ui: { resourceUri: NOTES_VIEW_URI },
      handler: () => listed(),
    }),
    defineTool({
      name: 'add_note',
      title: 'Add Note',
      description: "Add a note. Called by the notes View's Add button; not offered to the model.",
      input: z.object({ text: z.string().min(1).max(500).describe('The note text.') }),
      effect: 'additive',
      world: 'closed',
      tags: ['notes', 'write'],
      ui: { visibility: ['app'] },
      handler: ({ text }) => {
        const note = store.add(text);
        return { ...listed(), content: [{ type: 'text' as const, text: `Added note #${note.id}.` }] };
      },
    }),
    defineTool({
      name: 'delete_note',
      title: 'Delete Note',
      description: 'Delete a note by id. For the model only: the notes View cannot delete.',
      input: z.object({ id: z.number().int().positive().describe('The id of the note to delete.') }),
      effect: 'destructive',
      world: 'closed',
      idempotent: true,
      tags: ['notes', 'write'],
      ui: { visibility: ['model'] },
      handler: ({ id }) => {
        if (!store.delete(id)) throw new ToolError(`There is no note #${id}.`, { code: 'not_found' });
        return `Deleted note #${id}.`;
      },
    }),
  ];
}

/**
 * A ready notes server: the tools plus the View resource.
 *
 * @example
 * ```ts
 * const server = createNotesServer();
 * await server.listen({ port: 3001 });
 * ```
 */
export function createNotesServer(options: NotesServerOptions = {}): CandorServer {
  const store = new NoteStore(options.notes ?? ['Try the Add button below.', 'delete_note is for the model only.']);
  return createServer({
    name: 'candor-notes',
    version: '0.1.0',
    tools: createNotesTools(store),
    resources: [
      defineResource({
        uri: NOTES_VIEW_URI,
        name: 'notes-view',
        title: 'Notes',
        description: 'The notes View: lists notes and adds new ones through add_note.',
        // No csp: the View gets the spec's defaults (no network at all).
        _meta: { ui: { prefersBorder: true } },
        read: () => NOTES_VIEW_HTML,
      }),
    ],
  });
}
