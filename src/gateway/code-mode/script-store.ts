/**
 * Stored scripts: scripts saved under a name with a description, listed by code-mode
 * endpoints as tools of their own (stored-tools.ts). They live in one JSON file
 * (`candor.scripts.json` next to the gateway config, or the `scripts` setting) that a
 * person edits by hand and the model adds to through `save_script`:
 *
 * ```json
 * { "scripts": { "stale_issues": { "description": "Open issues untouched for a month.", "code": "…" } } }
 * ```
 *
 * Nothing in the file is ever lost to a save: a save reads the file again, adds one
 * script under a name not taken, and replaces the file atomically (a temporary file
 * renamed over it). A file that does not parse stops the gateway at start with every
 * mistake named; one broken while the gateway runs keeps the scripts read before in
 * force and refuses saves until it is fixed (a save would overwrite the person's edit).
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { CandorError } from '../../errors.js';
import { isRecord } from '../../util/is-record.js';
import { fail } from '../config-json.js';
import { ConfigProblems, unknownKey } from '../config-problems.js';

/** The file's name when it sits next to the gateway config. */
export const SCRIPTS_FILE_NAME = 'candor.scripts.json';

/** A stored script's name: a tool name of its own (no "__", which joins server and tool). */
export const SCRIPT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The longest script and description kept. */
export const MAX_SCRIPT_CHARS = 100_000;
const MAX_DESCRIPTION_CHARS = 2_000;

/** One stored script. */
export interface StoredScript {
  name: string;
  description: string;
  /** The body of an async function, as `run_script` takes it. */
  code: string;
  /** Who saved it: a person (the file) or the model (`save_script`). */
  savedBy: 'person' | 'model';
}

const ENTRY_KEYS = ['description', 'code', 'savedBy'];

/**
 * The stored scripts, read from their file (or kept in memory without one).
 *
 * @example
 * ```ts
 * const store = await ScriptStore.open({ file: 'candor.scripts.json' });
 * await store.save({ name: 'stale', description: 'Stale issues.', code }, 'model');
 * store.list(); // [{ name: 'stale', … }]
 * ```
 */
export class ScriptStore {
  readonly file: string | undefined;
  #scripts = new Map<string, StoredScript>();
  #generation = 0;
  /** Why the file cannot be read now (it broke while the gateway ran); saves wait for a fix. */
  #broken: string | undefined;
  readonly #listeners = new Set<() => void>();
  #saving: Promise<unknown> = Promise.resolve();

  private constructor(file: string | undefined) {
    this.file = file;
  }

  /** Open the store; a file that is not a valid scripts file throws, naming each mistake. */
  static async open(options: { file?: string | undefined }): Promise<ScriptStore> {
    const store = new ScriptStore(options.file);
    if (store.file !== undefined) store.#scripts = await readScripts(store.file);
    return store;
  }

  /** Changes each time the scripts change. */
  get generation(): number {
    return this.#generation;
  }

  list(): StoredScript[] {
    return [...this.#scripts.values()];
  }

  get(name: string): StoredScript | undefined {
    return this.#scripts.get(name);
  }

  /** Called after the scripts changed (a save, or the file read again). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Add a script under a name not taken. The file is read again first (a person may
   * have edited it) and written atomically; a broken file is left alone and the save refused.
   */
  save(script: Omit<StoredScript, 'savedBy'>, savedBy: StoredScript['savedBy']): Promise<StoredScript> {
    const problem = scriptProblem(script);
    if (problem !== undefined) return Promise.reject(new CandorError(problem, { code: 'invalid_script' }));
    // One save at a time: two saves racing would each write the file without the other's script.
    const saving = this.#saving.then(async () => {
      const current = this.file === undefined ? this.#scripts : await this.#readForSave();
      if (current.has(script.name))
        throw new CandorError(
          `A stored script named ${JSON.stringify(script.name)} exists already; choose another name (a person can remove or change it in ${this.file ?? 'the gateway'}).`,
          { code: 'invalid_script' },
        );
      const stored: StoredScript = { ...script, savedBy };
      const next = new Map(current).set(script.name, stored);
      if (this.file !== undefined) await writeScripts(this.file, next);
      this.#replace(next);
      return stored;
    });
    this.#saving = saving.catch(() => {});
    return saving;
  }

  /** Remove a script (a person's choice: the model has no tool for it); false when there is none. */
  remove(name: string): Promise<boolean> {
    const removing = this.#saving.then(async () => {
      const current = this.file === undefined ? this.#scripts : await this.#readForSave();
      if (!current.has(name)) return false;
      const next = new Map(current);
      next.delete(name);
      if (this.file !== undefined) await writeScripts(this.file, next);
      this.#replace(next);
      return true;
    });
    this.#saving = removing.catch(() => {});
    return removing;
  }

  /** Read the file again (it changed); a broken file keeps the scripts in force and is reported. */
  async reload(): Promise<void> {
    if (this.file === undefined) return;
    try {
      const next = await readScripts(this.file);
      this.#broken = undefined;
      // A save's own write comes back here: nothing changed, nothing to tell.
      if (sameScripts(next, this.#scripts)) return;
      this.#replace(next);
    } catch (error) {
      this.#broken = (error as Error).message;
      throw error;
    }
  }

  async #readForSave(): Promise<Map<string, StoredScript>> {
    try {
      return await readScripts(this.file!);
    } catch (error) {
      this.#broken = (error as Error).message;
      throw new CandorError(
        `The stored scripts file cannot be read, so nothing is saved until a person fixes it: ${this.#broken}`,
        { code: 'invalid_gateway_config', cause: error },
      );
    }
  }

  #replace(next: Map<string, StoredScript>): void {
    this.#scripts = next;
    this.#generation++;
    for (const listener of this.#listeners) listener();
  }
}

function sameScripts(a: Map<string, StoredScript>, b: Map<string, StoredScript>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, script] of a) {
    const other = b.get(name);
    if (
      other === undefined ||
      other.code !== script.code ||
      other.description !== script.description ||
      other.savedBy !== script.savedBy
    )
      return false;
  }
  return true;
}

/** What is wrong with a script to be saved, or undefined. */
function scriptProblem(script: { name: unknown; description: unknown; code: unknown }): string | undefined {
  if (typeof script.name !== 'string' || !SCRIPT_NAME.test(script.name) || script.name.includes('__'))
    return 'A stored script\'s name starts with a letter and uses letters, digits, "_" and "-" (at most 64, no "__").';
  if (typeof script.description !== 'string' || script.description.trim() === '')
    return 'A stored script needs a description: what it does, for whoever calls it.';
  if (script.description.length > MAX_DESCRIPTION_CHARS)
    return `A stored script's description is at most ${MAX_DESCRIPTION_CHARS} characters.`;
  if (typeof script.code !== 'string' || script.code.trim() === '' || script.code.length > MAX_SCRIPT_CHARS)
    return `A stored script's code is a non-empty string of at most ${MAX_SCRIPT_CHARS} characters.`;
  return undefined;
}

/** Read and check the file; a missing file is an empty store. */
async function readScripts(file: string): Promise<Map<string, StoredScript>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw new CandorError(`Cannot read the stored scripts ${file}: ${(error as Error).message}`, {
      code: 'invalid_gateway_config',
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    fail(file, '', `not valid JSON (${(error as Error).message}); nothing was changed.`);
  }
  return parseScripts(data, file);
}

/**
 * Check a parsed scripts file: every mistake named with its JSON path, in one error.
 *
 * @example
 * ```ts
 * parseScripts({ scripts: { a: { description: 'A.', code: 'return 1;' } } }, 'candor.scripts.json');
 * ```
 */
export function parseScripts(data: unknown, file: string): Map<string, StoredScript> {
  if (!isRecord(data) || !isRecord(data.scripts))
    fail(file, '', 'expected { "scripts": { "<name>": { "description": "…", "code": "…" } } }.');
  const problems = new ConfigProblems(file);
  for (const key of Object.keys(data)) if (key !== 'scripts') problems.report(key, unknownKey(key, ['scripts']));
  const scripts = new Map<string, StoredScript>();
  for (const [name, entry] of Object.entries(data.scripts)) {
    const at = `scripts.${name}`;
    if (!isRecord(entry)) {
      problems.report(at, 'expected { "description": "…", "code": "…" }.');
      continue;
    }
    for (const key of Object.keys(entry))
      if (!ENTRY_KEYS.includes(key)) problems.report(`${at}.${key}`, unknownKey(key, ENTRY_KEYS));
    // A person may write the code as lines.
    const code =
      Array.isArray(entry.code) && entry.code.every((line) => typeof line === 'string')
        ? entry.code.join('\n')
        : entry.code;
    const problem = scriptProblem({ name, description: entry.description, code });
    if (problem !== undefined) {
      problems.report(at, problem);
      continue;
    }
    if (entry.savedBy !== undefined && entry.savedBy !== 'person' && entry.savedBy !== 'model') {
      problems.report(`${at}.savedBy`, 'must be "person" or "model".');
      continue;
    }
    scripts.set(name, {
      name,
      description: entry.description as string,
      code: code as string,
      savedBy: entry.savedBy === 'model' ? 'model' : 'person',
    });
  }
  problems.throwIfAny();
  return scripts;
}

/** Write the scripts: names in order, two-space indent, replaced atomically. */
async function writeScripts(file: string, scripts: Map<string, StoredScript>): Promise<void> {
  const out: Record<string, Omit<StoredScript, 'name'>> = {};
  for (const name of [...scripts.keys()].sort()) {
    const { name: _name, ...rest } = scripts.get(name)!;
    out[name] = rest;
  }
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ scripts: out }, null, 2)}\n`, 'utf8');
  await rename(temporary, file);
}
