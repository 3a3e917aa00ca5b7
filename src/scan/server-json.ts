/**
 * Reading an MCP Registry `server.json` (schema 2025-12-11): the parts a scan
 * uses (packages with their arguments, environment and transport; remotes),
 * checked against the schema's rules. A file that breaks one is refused with
 * the file, the JSON path and the reason, and nothing is started.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { CandorError } from '../errors.js';

/** An input's own fields (schema `Input`): a fixed value, a default, or something the user must give. */
const input = {
  description: z.string().optional(),
  value: z.string().optional(),
  default: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  choices: z.array(z.string()).optional(),
  placeholder: z.string().optional(),
};
const Input = z.looseObject(input);
/** `InputWithVariables`: `{name}` in `value` is replaced by the variable's value. */
const withVariables = { ...input, variables: z.record(z.string(), Input).optional() };
const KeyValue = z.looseObject({ ...withVariables, name: z.string() });

const Positional = z
  .looseObject({
    ...withVariables,
    type: z.literal('positional'),
    valueHint: z.string().optional(),
    isRepeated: z.boolean().optional(),
  })
  .refine((a) => a.value !== undefined || a.valueHint !== undefined, {
    message: 'a positional argument needs "value" or "valueHint"',
  });
const Named = z.looseObject({
  ...withVariables,
  type: z.literal('named'),
  name: z.string(),
  isRepeated: z.boolean().optional(),
});
const Argument = z.discriminatedUnion('type', [Positional, Named]);

// Both transports' URLs start with http(s):// or a {variable} (schema StreamableHttpTransport.url).
const TransportUrl = z
  .string()
  .regex(/^(https?:\/\/\S+|\{[A-Za-z_]\w*\}\S*)$/, 'must start with http://, https:// or a {variable}');
const Http = { url: TransportUrl, headers: z.array(KeyValue).optional() };
const LocalTransport = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('stdio') }),
  z.looseObject({ type: z.literal('streamable-http'), ...Http }),
  z.looseObject({ type: z.literal('sse'), ...Http }),
]);
const variables = { variables: z.record(z.string(), Input).optional() };
const RemoteTransport = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('streamable-http'), ...Http, ...variables }),
  z.looseObject({ type: z.literal('sse'), ...Http, ...variables }),
]);

// An exact version: `latest` and ranges (^1.2.3, ~1.2.3, >=1.2.3, 1.x, 1.*) are refused, as the registry refuses them.
const ExactVersion = z
  .string()
  .min(1)
  .max(255)
  .refine((v) => v !== 'latest', { message: 'must be an exact version, not "latest"' })
  .refine((v) => !/^[\^~<>=]|(^|\.)[xX*](\.|$)|\s/.test(v), {
    message: 'must be an exact version, not a range',
  });

const Package = z.looseObject({
  registryType: z.string(),
  registryBaseUrl: z.url().optional(),
  identifier: z.string().min(1),
  version: ExactVersion.optional(),
  fileSha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/, 'must be 64 lowercase hex digits')
    .optional(),
  runtimeHint: z.string().optional(),
  runtimeArguments: z.array(Argument).optional(),
  packageArguments: z.array(Argument).optional(),
  environmentVariables: z.array(KeyValue).optional(),
  transport: LocalTransport,
});

const ServerJsonSchema = z.looseObject({
  $schema: z.string().optional(),
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'must be reverse-DNS with exactly one "/" (io.github.user/server)'),
  description: z.string().min(1).max(100),
  version: z.string().max(255),
  title: z.string().min(1).max(100).optional(),
  websiteUrl: z.url().optional(),
  packages: z.array(Package).optional(),
  remotes: z.array(RemoteTransport).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

/** A `server.json` as read (unknown keys kept). */
export type ServerJson = z.infer<typeof ServerJsonSchema>;
/** One entry of `packages[]`. */
export type ServerJsonPackage = z.infer<typeof Package>;
/** One entry of `remotes[]`. */
export type ServerJsonRemote = z.infer<typeof RemoteTransport>;
/** A runtime or package argument. */
export type ServerJsonArgument = z.infer<typeof Argument>;
/** An input with a name: an environment variable or a header. */
export type ServerJsonKeyValue = z.infer<typeof KeyValue>;
/** An input (a variable's definition). */
export type ServerJsonInput = z.infer<typeof Input>;

/** `$.packages[0].version` from zod's path. */
function jsonPath(path: readonly PropertyKey[]): string {
  return `$${path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')}`;
}

/**
 * Read and check a `server.json`. Throws a {@link CandorError} (`invalid_target`)
 * naming the file, the JSON path and the reason for each problem.
 *
 * @example
 * ```ts
 * const server = await readServerJson('./server.json');
 * server.packages?.[0]?.identifier; // '@modelcontextprotocol/server-memory'
 * ```
 */
export async function readServerJson(file: string): Promise<ServerJson> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CandorError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error}).`, {
      code: 'invalid_target',
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CandorError(`${file}: $: not valid JSON (${(error as Error).message}).`, {
      code: 'invalid_target',
      cause: error,
    });
  }
  const parsed = ServerJsonSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${file}: ${jsonPath(issue.path)}: ${issue.message}`);
    throw new CandorError(`${file} is not a valid server.json (schema 2025-12-11):\n${problems.join('\n')}`, {
      code: 'invalid_target',
    });
  }
  return parsed.data;
}
