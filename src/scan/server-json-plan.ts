/**
 * From a `server.json` to what a scan starts: the first npm package that runs
 * over stdio (observe can sandbox it), else the first remote. Arguments and
 * environment come from the file, with `{name}` replaced by the input's
 * variables; values the person gives (`--env NAME=VALUE`) fill the inputs the
 * file leaves open. Required inputs nobody gave are listed, never invented.
 */
import type {
  ServerJson,
  ServerJsonArgument,
  ServerJsonInput,
  ServerJsonKeyValue,
  ServerJsonPackage,
} from './server-json.js';

/** What to scan from a server.json. */
export type ServerJsonPlan =
  | {
      kind: 'package';
      /** `packages[i]`, for the report. */
      index: number;
      /** `identifier@version` for npm. */
      spec: string;
      registry?: string;
      /** Arguments for node, before the package's bin file (runtimeHint `node` only). */
      runtimeArgs: string[];
      /** Arguments after the bin file. */
      packageArgs: string[];
      env: Record<string, string>;
      /** Required inputs (environment variables, arguments) that were not given. */
      missing: string[];
      notes: string[];
    }
  | {
      kind: 'remote';
      index: number;
      url: string;
      transport: 'streamable-http' | 'sse';
      headers: Record<string, string>;
      missing: string[];
      notes: string[];
    };

/** Replace `{name}` from the variables (given values first); unknown names stay as they are, as the schema says. */
function substitute(
  text: string,
  variables: Record<string, ServerJsonInput> | undefined,
  given: Record<string, string>,
  missing: Set<string>,
): string {
  return text.replace(/\{([A-Za-z_][\w-]*)\}/g, (whole, name: string) => {
    const variable = variables?.[name];
    const value = given[name] ?? variable?.value ?? variable?.default;
    if (value !== undefined) return value;
    if (variable?.isRequired) missing.add(name);
    return whole;
  });
}

/** An input's value: its fixed `value` (with variables), else what was given under `key`, else its default. */
function resolve(
  item: ServerJsonInput & { variables?: Record<string, ServerJsonInput> },
  key: string,
  given: Record<string, string>,
  missing: Set<string>,
): string | undefined {
  if (item.value !== undefined) return substitute(item.value, item.variables, given, missing);
  const value = given[key] ?? item.default;
  if (value === undefined && item.isRequired) missing.add(key);
  return value;
}

function argumentsOf(
  list: readonly ServerJsonArgument[] | undefined,
  given: Record<string, string>,
  missing: Set<string>,
) {
  const out: string[] = [];
  for (const arg of list ?? []) {
    if (arg.type === 'positional') {
      const value = resolve(arg, arg.valueHint ?? '', given, missing);
      if (value !== undefined) out.push(value);
      continue;
    }
    // A named argument without any value is a bare flag (`--stdio`); with one, the flag and its value.
    const bare = arg.value === undefined && arg.default === undefined && !arg.isRequired;
    const value = bare ? undefined : resolve(arg, arg.name.replace(/^-+/, ''), given, missing);
    if (bare) out.push(arg.name);
    else if (value !== undefined) out.push(arg.name, value);
  }
  return out;
}

function keyValues(
  list: readonly ServerJsonKeyValue[] | undefined,
  given: Record<string, string>,
  missing: Set<string>,
) {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const value = resolve(item, item.name, given, missing);
    if (value !== undefined) out[item.name] = value;
  }
  return out;
}

function packagePlan(pkg: ServerJsonPackage, index: number, given: Record<string, string>): ServerJsonPlan {
  const missing = new Set<string>();
  const notes: string[] = [];
  const node = pkg.runtimeHint === 'node';
  if (pkg.runtimeArguments?.length && !node)
    notes.push(
      `packages[${index}].runtimeArguments are ${pkg.runtimeHint ?? 'the runtime'}'s own; the scan installs the package itself and starts its bin with node`,
    );
  return {
    kind: 'package',
    index,
    spec: pkg.version ? `${pkg.identifier}@${pkg.version}` : pkg.identifier,
    ...(pkg.registryBaseUrl ? { registry: pkg.registryBaseUrl } : {}),
    runtimeArgs: node ? argumentsOf(pkg.runtimeArguments, given, missing) : [],
    packageArgs: argumentsOf(pkg.packageArguments, given, missing),
    env: keyValues(pkg.environmentVariables, given, missing),
    missing: [...missing],
    notes,
  };
}

/**
 * Choose what to scan and fill in its arguments, environment or URL.
 * Throws (with the reasons) when nothing in the file can be scanned.
 *
 * @example
 * ```ts
 * const plan = planServerJson(server, { API_KEY: 'k' });
 * if (plan.kind === 'package') plan.spec; // '@scope/server@1.2.3'
 * ```
 */
export function planServerJson(server: ServerJson, given: Record<string, string>): ServerJsonPlan {
  const skipped: string[] = [];
  for (const [index, pkg] of (server.packages ?? []).entries()) {
    if (pkg.registryType !== 'npm') skipped.push(`packages[${index}] is ${pkg.registryType} (only npm is installed)`);
    else if (pkg.transport.type !== 'stdio')
      skipped.push(`packages[${index}] runs over ${pkg.transport.type} (packages are started over stdio)`);
    else return packagePlan(pkg, index, given);
  }
  const remote = server.remotes?.[0];
  if (remote) {
    const missing = new Set<string>();
    return {
      kind: 'remote',
      index: 0,
      url: substitute(remote.url, remote.variables, given, missing),
      transport: remote.type,
      headers: keyValues(remote.headers, given, missing),
      missing: [...missing],
      notes: skipped,
    };
  }
  throw new Error(
    skipped.length > 0
      ? `nothing in it can be scanned: ${skipped.join('; ')}, and it has no remotes.`
      : 'it has neither packages nor remotes: nothing to scan.',
  );
}
