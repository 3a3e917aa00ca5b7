/**
 * The overrides file: the user declares what a third-party server's tools do,
 * in candor's vocabulary (`effect`, `world`, `idempotent`) or as hints. Those
 * declarations are the user's own word, so they are trusted even when the
 * server is not ("Trust").
 *
 * ```json
 * {
 *   "servers": {
 *     "memory": {
 *       "tools": {
 *         "read_graph": { "effect": "read", "world": "closed" },
 *         "delete_*": { "effect": "destructive", "world": "closed", "idempotent": true },
 *         "create_entities": { "annotations": { "readOnlyHint": false, "destructiveHint": false }, "tags": ["kg"] },
 *         "search_nodes": { "accept": ["description-steering"] }
 *       }
 *     }
 *   }
 * }
 * ```
 */
import { readFile } from 'node:fs/promises';
import picomatch from 'picomatch';
import { z } from 'zod';
import { CandorError, isDefinitionError } from '../errors.js';
import { resolveBehaviour } from '../tool/effects.js';
import type { ResolvedHints } from '../tool/types.js';

const hintsSchema = z
  .object({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .strict();

const toolOverrideSchema = z
  .object({
    effect: z.enum(['read', 'additive', 'destructive']).optional(),
    world: z.enum(['closed', 'open']).optional(),
    idempotent: z.boolean().optional(),
    annotations: hintsSchema.optional(),
    tags: z.array(z.string()).optional(),
    /** Lint rule ids whose findings at the gateway's door are accepted for this tool. */
    accept: z.array(z.string().regex(/^[a-z]+(-[a-z]+)*$/, 'a lint rule id, e.g. "description-steering"')).optional(),
  })
  .strict();

const overridesSchema = z
  .object({
    $schema: z.string().optional(),
    servers: z.record(z.string(), z.object({ tools: z.record(z.string(), toolOverrideSchema) }).strict()),
  })
  .strict();

/** The overrides file's content. */
export type OverridesFile = z.infer<typeof overridesSchema>;

/** What an override says about one tool, resolved. */
export interface ToolOverride {
  hints: ResolvedHints;
  tags: string[];
  /** The key in the file that matched (a name or a glob). */
  pattern: string;
}

/**
 * Overrides, checked and compiled: exact names win over globs; among globs, the first in the file wins.
 *
 * @example
 * ```ts
 * const overrides = await Overrides.load('candor.overrides.json');
 * overrides.lookup('memory', 'read_graph')?.hints.readOnlyHint; // true
 * ```
 */
export class Overrides {
  readonly #servers = new Map<
    string,
    Array<{
      pattern: string;
      match: (name: string) => boolean;
      value: ToolOverride;
      declares: boolean;
      accept: string[];
    }>
  >();

  constructor(file: OverridesFile | unknown, where = 'overrides') {
    const parsed = overridesSchema.safeParse(file);
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      throw new CandorError(`The overrides in ${where} are invalid:\n${details.join('\n')}`, {
        code: 'invalid_overrides',
      });
    }
    for (const [server, { tools }] of Object.entries(parsed.data.servers)) {
      const entries = Object.entries(tools).map(([pattern, declared]) => {
        let hints: ResolvedHints;
        try {
          hints = resolveBehaviour(pattern, declared).hints;
        } catch (error) {
          if (!isDefinitionError(error)) throw error;
          throw new CandorError(`The overrides in ${where}, servers.${server}.tools: ${error.message}`, {
            code: 'invalid_overrides',
            cause: error,
          });
        }
        const exact = !picomatch.scan(pattern).isGlob;
        return {
          pattern,
          exact,
          match: exact ? (name: string) => name === pattern : picomatch(pattern, { dot: true }),
          value: { hints, tags: declared.tags ?? [], pattern },
          // An entry that only accepts findings says nothing about what the tool does.
          declares: Object.keys(declared).some((key) => key !== 'accept'),
          accept: declared.accept ?? [],
        };
      });
      // Exact names first, then globs in file order.
      entries.sort((a, b) => Number(b.exact) - Number(a.exact));
      this.#servers.set(server, entries);
    }
  }

  /**
   * Read and check an overrides file.
   *
   * @example
   * ```ts
   * const overrides = await Overrides.load('./candor.overrides.json');
   * ```
   */
  static async load(path: string): Promise<Overrides> {
    let data: unknown;
    try {
      data = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new CandorError(`Cannot read the overrides file ${path}: ${(error as Error).message}`, {
        code: 'invalid_overrides',
        cause: error,
      });
    }
    return new Overrides(data, path);
  }

  /** The override for a server's tool, if the file declares one. */
  lookup(server: string, tool: string): ToolOverride | undefined {
    return this.#servers.get(server)?.find((entry) => entry.declares && entry.match(tool))?.value;
  }

  /**
   * The lint rules whose door-scan findings the file accepts for a server's tool
   * (every matching entry's `accept`).
   *
   * @example
   * ```ts
   * overrides.accepted('notes', 'search'); // ['description-steering']
   * ```
   */
  accepted(server: string, tool: string): string[] {
    const entries = this.#servers.get(server) ?? [];
    return [...new Set(entries.filter((entry) => entry.match(tool)).flatMap((entry) => entry.accept))];
  }
}
