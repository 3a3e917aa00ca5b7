/** The notes app's store: a few notes in memory, numbered in creation order. */

/** One note. */
export interface Note {
  id: number;
  text: string;
  created: string;
}

/** An in-memory list of notes (one per server instance). */
export class NoteStore {
  readonly #notes = new Map<number, Note>();
  #next = 1;

  constructor(initial: readonly string[] = []) {
    for (const text of initial) this.add(text);
  }

  list(): Note[] {
    return [...this.#notes.values()];
  }

  add(text: string): Note {
    const note: Note = { id: this.#next++, text, created: new Date().toISOString() };
    this.#notes.set(note.id, note);
    return note;
  }

  delete(id: number): boolean {
    return this.#notes.delete(id);
  }
}
