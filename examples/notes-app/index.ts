/** candor's notes example: a small MCP App (a View, an app-only helper, a model-only destructive tool). */
export { createNotesServer, createNotesTools, NOTES_VIEW_URI, type NotesServerOptions } from './server.js';
export { type Note, NoteStore } from './store.js';
