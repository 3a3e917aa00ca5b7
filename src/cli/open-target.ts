/**
 * Connecting `candor inspect` and `candor call` to exactly one server: a URL,
 * `-- command`, a config entry, or a local module (served in process through
 * candor's engine and an in-memory transport, so a module is inspected exactly
 * as a client would see it).
 */
import { Client } from '@modelcontextprotocol/client';
import { clientOptionsFor, connectTarget } from '../targets/connect.js';
import { listAllTools } from '../targets/list.js';
import { listOffers, type ServerOffers } from '../targets/offers.js';
import { parseTargets, type TargetInput } from '../targets/parse.js';
import type { Target } from '../targets/types.js';
import { logSettingsFrom, stderrLogger } from '../util/logger.js';
import { CliError, EXIT, isCliError } from './cli-error.js';
import { loadServerModule } from './load-server.js';
import { packageInfo } from './package-root.js';
import type { ProtocolChoice } from './protocol-flag.js';
import { describeRequestError } from './request-errors.js';
import { signInWhenAsked } from './sign-in.js';
import type { ListedTool } from './tool-summary.js';

/** An open connection to one server. */
export interface OpenTarget {
  client: Client;
  label: string;
  /** Whether requests go over HTTP (where 2026-07-28 mirrors tool parameters into headers). */
  http: boolean;
  /** The last lines a stdio server wrote to stderr (for error messages). */
  stderrTail(): string[];
  close(): Promise<void>;
}

/**
 * Parse the target words and connect to the single server they name.
 *
 * @example
 * ```ts
 * const target = await openTarget({ targets: ['http://127.0.0.1:3000/mcp'] }, { timeoutMs: 10_000 });
 * try { console.log(await target.client.listTools()); } finally { await target.close(); }
 * ```
 */
export async function openTarget(
  input: TargetInput,
  options: { timeoutMs: number; protocol?: ProtocolChoice },
): Promise<OpenTarget> {
  let targets: Target[];
  try {
    targets = await parseTargets(input);
  } catch (error) {
    throw new CliError((error as Error).message, { exitCode: EXIT.usage, cause: error });
  }
  if (targets.length !== 1) {
    const names = targets.map((t) => t.source?.name ?? t.label);
    throw new CliError(
      `That names ${targets.length} servers (${names.join(', ')}); pick one, e.g. file.json#${names[0] ?? 'name'} or --server ${names[0] ?? 'name'}.`,
      { exitCode: EXIT.usage },
    );
  }
  const target = targets[0]!;
  const era = options.protocol ?? target.protocol ?? 'auto';
  const clientInfo = { name: 'candor', version: packageInfo().version };
  if (target.kind === 'invalid') throw new CliError(`${target.label}: ${target.reason}`, { exitCode: EXIT.usage });
  if (target.kind === 'module') {
    const { server } = await loadServerModule(target.path);
    const client = new Client(clientInfo, clientOptionsFor(era, options.timeoutMs));
    await client.connect(server.connectMemory() as never);
    return {
      client,
      label: target.label,
      http: false,
      stderrTail: () => [],
      close: async () => {
        await client.close().catch(() => undefined);
        await server.close();
      },
    };
  }
  // A config entry that says "sandbox" runs in it, as the gateway runs it. Loaded
  // here: the gateway's config code is not needed to inspect a URL.
  let run: Target = target;
  let dispose = async () => {};
  if (target.kind === 'stdio' && target.source) {
    const { confineTargets } = await import('../gateway/sandboxing.js');
    const logger = { ...stderrLogger({ name: 'candor', ...logSettingsFrom(process.env) }), error() {} };
    const confined = await confineTargets([target], { logger });
    if (confined.refused.length > 0) throw new CliError(confined.refused.join('\n'));
    run = confined.targets[0]!;
    dispose = confined.dispose;
  }
  try {
    const connection = await connectTarget(run, {
      timeoutMs: options.timeoutMs,
      clientInfo,
      era,
      onSignInRequired: signInWhenAsked(),
    });
    return {
      ...connection,
      http: connection.target.kind === 'http',
      close: async () => {
        await connection.close();
        await dispose();
      },
    };
  } catch (error) {
    await dispose();
    if (isCliError(error) || (error as { name?: unknown }).name === 'SignInRequiredError') throw error;
    throw new CliError((error as Error).message, { cause: error });
  }
}

/** The target words `inspect` and `call` take, as their commands parse them. */
export interface TargetWords {
  targets: string[];
  command: string[];
  config?: string;
  server?: string;
  /** `--env` / `--env-file` for a `--` command. */
  commandEnv?: TargetInput['commandEnv'];
  /** `--protocol`: the era to speak (default `auto`). */
  protocol?: ProtocolChoice;
}

/**
 * Connect to the one server the words name (what `openTarget` does, from the
 * commands' own option shape).
 */
export function openTargetWords(words: TargetWords, timeoutMs: number): Promise<OpenTarget> {
  return openTarget(
    {
      targets: words.targets,
      ...(words.command.length > 0 ? { command: words.command } : {}),
      ...(words.config !== undefined ? { config: words.config } : {}),
      ...(words.server !== undefined ? { server: words.server } : {}),
      ...(words.commandEnv !== undefined ? { commandEnv: words.commandEnv } : {}),
    },
    { timeoutMs, ...(words.protocol !== undefined ? { protocol: words.protocol } : {}) },
  );
}

/** Every tool the server lists (all pages), with a failure described for a person. */
export async function listTargetTools(target: OpenTarget, timeoutMs: number): Promise<ListedTool[]> {
  try {
    const raw = await listAllTools(target.client, { timeoutMs });
    return raw.filter((t): t is ListedTool => typeof (t as ListedTool)?.name === 'string');
  } catch (error) {
    throw describeRequestError(error, {
      label: target.label,
      what: 'tools/list',
      timeoutMs,
      stderr: target.stderrTail(),
    });
  }
}

/**
 * The resources, resource templates and prompts the target offers (none of a kind it does
 * not declare); a failed list is reported like a failed tools/list.
 *
 * @example
 * ```ts
 * const { resources, prompts } = await listTargetOffers(target, 30_000);
 * ```
 */
export async function listTargetOffers(target: OpenTarget, timeoutMs: number): Promise<ServerOffers> {
  try {
    return await listOffers(target.client, { timeoutMs });
  } catch (error) {
    throw describeRequestError(error, {
      label: target.label,
      what: 'resources/list or prompts/list',
      timeoutMs,
      stderr: target.stderrTail(),
    });
  }
}
