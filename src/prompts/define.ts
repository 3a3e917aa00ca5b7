/**
 * `definePrompt`: a prompt as plain data. Arguments come as a zod object (or
 * any Standard Schema with JSON Schema) or as a plain list; either way the
 * wire `arguments` list is computed once here.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { DefinitionError } from '../errors.js';
import type { Completer, Icon } from '../resources/types.js';
import type {
  PromptArgsCheck,
  PromptArgument,
  PromptContext,
  PromptDefinition,
  PromptReturn,
  WirePrompt,
} from './types.js';

type ObjectSchema<T> = StandardSchemaV1<unknown, T> & StandardJSONSchemaV1<unknown, T>;

/** Everything `definePrompt` accepts. */
export interface PromptConfig<T = Record<string, string | undefined>> {
  name: string;
  title?: string;
  description?: string;
  /** A zod object of string arguments, or a plain list of `{ name, description?, required? }`. */
  arguments?: ObjectSchema<T> | PromptArgument[];
  /** Completion of argument values, by argument name (zod enums complete on their own). */
  complete?: Record<string, Completer>;
  icons?: Icon[];
  _meta?: { [key: string]: unknown };
  get: (args: T, ctx: PromptContext) => PromptReturn | Promise<PromptReturn>;
}

/**
 * Define a prompt.
 *
 * @example
 * ```ts
 * const review = definePrompt({
 *   name: 'code_review',
 *   description: 'Review a piece of code.',
 *   arguments: z.object({ code: z.string().describe('The code'), language: z.enum(['ts', 'py']).optional() }),
 *   get: ({ code }) => `Please review:\n\n${code}`,
 * });
 * ```
 */
export function definePrompt<T = Record<string, string | undefined>>(config: PromptConfig<T>): PromptDefinition {
  if (typeof config !== 'object' || config === null)
    throw new DefinitionError('definePrompt takes one options object.');
  const where = `prompt ${JSON.stringify(config.name)}`;
  if (typeof config.name !== 'string' || config.name.length === 0) {
    throw new DefinitionError(`${where}: name must be a non-empty string.`, { fields: ['name'] });
  }
  if (typeof config.get !== 'function') {
    throw new DefinitionError(`${where}: get must be a function returning messages.`, { fields: ['get'] });
  }
  const complete: Record<string, Completer> = { ...config.complete };
  let args: PromptArgument[] = [];
  let validate: PromptDefinition['validate'];
  const spec = config.arguments;
  if (spec === undefined) {
    validate = (value) => ({ ok: true, value });
  } else if (Array.isArray(spec)) {
    args = spec.map((a, i) => checkArgument(where, a, i));
    validate = listValidator(args);
  } else if (typeof spec === 'object' && spec !== null && '~standard' in spec) {
    const converted = fromSchema(where, spec as ObjectSchema<T>);
    args = converted.args;
    for (const [name, values] of Object.entries(converted.enums)) complete[name] ??= enumCompleter(values);
    const standard = (spec as ObjectSchema<T>)['~standard'];
    validate = async (value) => {
      const out = await standard.validate(value);
      if (out.issues === undefined) return { ok: true, value: out.value as Record<string, unknown> };
      return {
        ok: false,
        issues: out.issues.map((issue) => ({
          path: (issue.path ?? []).map((p) => (typeof p === 'object' ? (p.key as string | number) : p)) as Array<
            string | number
          >,
          message: issue.message,
        })),
      };
    };
  } else {
    throw new DefinitionError(`${where}: arguments must be a zod object schema or a list of arguments.`, {
      fields: ['arguments'],
    });
  }
  for (const name of Object.keys(complete)) {
    if (!args.some((a) => a.name === name)) {
      throw new DefinitionError(`${where}: complete.${name} names no declared argument.`, {
        fields: [`complete.${name}`],
      });
    }
  }
  const wire: WirePrompt = { name: config.name };
  if (config.title !== undefined) wire.title = config.title;
  if (config.description !== undefined) wire.description = config.description;
  if (args.length > 0) wire.arguments = args;
  if (config.icons !== undefined) wire.icons = config.icons.map((icon) => ({ ...icon }));
  if (config._meta !== undefined) wire._meta = { ...config._meta };
  return Object.freeze({
    kind: 'prompt' as const,
    name: config.name,
    wire: Object.freeze(wire),
    complete: Object.freeze(complete),
    validate,
    get: config.get as PromptDefinition['get'],
  });
}

function checkArgument(where: string, a: PromptArgument, index: number): PromptArgument {
  if (typeof a !== 'object' || a === null || typeof a.name !== 'string' || a.name.length === 0) {
    throw new DefinitionError(`${where}: arguments[${index}] needs a non-empty name.`, {
      fields: [`arguments.${index}`],
    });
  }
  const out: PromptArgument = { name: a.name };
  if (a.title !== undefined) out.title = a.title;
  if (a.description !== undefined) out.description = a.description;
  if (a.required !== undefined) out.required = a.required;
  return out;
}

function listValidator(args: PromptArgument[]): PromptDefinition['validate'] {
  return (value) => {
    const issues: Array<{ path: string[]; message: string }> = [];
    for (const a of args) {
      if (a.required && (value[a.name] === undefined || value[a.name] === null)) {
        issues.push({ path: [a.name], message: 'is required' });
      }
    }
    for (const [key, v] of Object.entries(value)) {
      if (typeof v !== 'string') issues.push({ path: [key], message: 'must be a string' });
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
  };
}

function fromSchema(
  where: string,
  schema: ObjectSchema<unknown>,
): { args: PromptArgument[]; enums: Record<string, string[]> } {
  const converter = schema['~standard'].jsonSchema;
  if (!converter) {
    throw new DefinitionError(`${where}: the arguments schema must support Standard JSON Schema (zod 4 does).`, {
      fields: ['arguments'],
    });
  }
  const json = converter.input({ target: 'draft-2020-12' }) as {
    type?: unknown;
    properties?: Record<string, { description?: string; title?: string; enum?: unknown[] }>;
    required?: string[];
  };
  if (json.type !== 'object') {
    throw new DefinitionError(`${where}: arguments must be an object schema (z.object({...})).`, {
      fields: ['arguments'],
    });
  }
  const required = new Set(json.required ?? []);
  const enums: Record<string, string[]> = {};
  const args = Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const arg: PromptArgument = { name, required: required.has(name) };
    if (prop.description !== undefined) arg.description = prop.description;
    if (prop.title !== undefined) arg.title = prop.title;
    if (Array.isArray(prop.enum) && prop.enum.every((v) => typeof v === 'string')) enums[name] = prop.enum as string[];
    return arg;
  });
  return { args, enums };
}

function enumCompleter(values: string[]): Completer {
  return (value) => values.filter((v) => v.toLowerCase().startsWith(value.toLowerCase()));
}

export type { PromptArgsCheck };
