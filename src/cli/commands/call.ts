/**
 * `candor call <target> <tool> [json-args | --arg k=v …]`: call one tool on any
 * MCP server and print the result. Destructive tools (destructiveHint true, or
 * absent on a tool that is not read-only: the spec's default) ask first on a
 * terminal and need `--yes` otherwise.
 *
 * ```
 * candor call http://127.0.0.1:3000/mcp read_file --arg path=README.md
 * candor call read_file '{"path": "README.md"}' -- npx -y @modelcontextprotocol/server-filesystem .
 * ```
 */

import type { Tool } from '@modelcontextprotocol/client';
import type { Command } from 'commander';
import { paramHeaderProblem } from '../../engine/modern/param-header-problems.js';
import type { TargetInput } from '../../targets/parse.js';
import { closestNames } from '../../util/edit-distance.js';
import { parseArgPairs, parseJsonArguments, type ToolArguments } from '../args.js';
import { CliError, EXIT } from '../cli-error.js';
import { askYesNo, canAsk, type PromptIo } from '../confirm.js';
import { addEnvOptions, commandEnvOf, type EnvOptions } from '../env-options.js';
import { splitAtDashDash } from '../operands.js';
import { formatResult } from '../print-result.js';
import { addProtocolOption, type ProtocolChoice, protocolOf } from '../protocol-flag.js';
import { describeRequestError } from '../request-errors.js';
import { isDestructive, summarizeTool } from '../tool-summary.js';
import { parseTimeout } from './inspect.js';

/** Everything `candor call` needs, already split from the command line. */
export interface CallOptions {
  /** Target words (URL, module, config file); empty when `command` or `config` names the server. */
  targets: string[];
  /** Words after `--`. */
  command: string[];
  config?: string;
  server?: string;
  /** `--env` / `--env-file` for a `--` command. */
  commandEnv?: TargetInput['commandEnv'];
  tool: string;
  /** The JSON-object argument, unparsed. */
  json?: string;
  /** `--arg` pairs. */
  args: string[];
  yes: boolean;
  asJson: boolean;
  timeoutMs: number;
  /** `--protocol`: the era to speak (default `auto`). */
  protocol?: ProtocolChoice;
}

/** Streams the command uses (real ones in the CLI). */
export interface CallIo extends PromptIo {
  stdout: NodeJS.WritableStream;
}

/**
 * Run `candor call`; resolves to the exit code (1 when the tool reported an error).
 *
 * @example
 * ```ts
 * const code = await runCall({ targets: ['http://127.0.0.1:3000/mcp'], command: [], tool: 'read_file',
 *   args: ['path=README.md'], yes: false, asJson: false, timeoutMs: 60_000 }, process);
 * ```
 */
export async function runCall(options: CallOptions, io: CallIo): Promise<number> {
  // Bad JSON is the caller's mistake: say so before starting any server.
  const fromJson: ToolArguments = options.json === undefined ? {} : parseJsonArguments(options.json);
  // Loaded here, not at the top: the SDK client is most of the CLI's start-up time.
  const { openTargetWords, listTargetTools } = await import('../open-target.js');
  const target = await openTargetWords(options, options.timeoutMs);
  try {
    const context = (what: string) => ({
      label: target.label,
      what,
      timeoutMs: options.timeoutMs,
      stderr: target.stderrTail(),
    });
    const tools = await listTargetTools(target, options.timeoutMs);
    const tool = tools.find((t) => t.name === options.tool);
    if (!tool) {
      const close = closestNames(
        options.tool,
        tools.map((t) => t.name),
      );
      throw new CliError(
        `${target.label} has no tool named "${options.tool}".${close.length > 0 ? ` Did you mean ${close.join(', ')}?` : ''}`,
        {
          exitCode: EXIT.usage,
          details: [`Its tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`],
        },
      );
    }
    // Streamable HTTP 2026-07-28 ("Custom Headers from Tool Parameters"): a client MUST NOT
    // call a tool whose x-mcp-header declarations are invalid.
    const headerProblem =
      target.http && target.client.getProtocolEra() === 'modern' ? paramHeaderProblem(tool.inputSchema) : undefined;
    if (headerProblem !== undefined) {
      throw new CliError(
        `${tool.name} on ${target.label} declares its Mcp-Param headers wrongly (${headerProblem}); a 2026-07-28 client over HTTP does not call such a tool. --protocol 2025-11-25 calls it without those headers.`,
        { exitCode: EXIT.failure },
      );
    }
    const args = { ...fromJson, ...parseArgPairs(options.args, tool.inputSchema) };

    if (isDestructive(tool) && !options.yes) {
      const hint =
        summarizeTool(tool).hints.destructiveHint.source === 'default'
          ? 'destructiveHint absent, so destructive by default'
          : 'destructiveHint: true';
      if (!canAsk(io)) {
        throw new CliError(
          `${tool.name} is destructive (${hint}); pass --yes to call it without a terminal to confirm on.`,
          {
            exitCode: EXIT.usage,
          },
        );
      }
      const yes = await askYesNo(
        `${tool.name} on ${target.label} is destructive (${hint}). Call it with ${JSON.stringify(args)}?`,
        io,
      );
      if (!yes) throw new CliError('Not called.', { exitCode: EXIT.failure });
    }

    let result: { content?: unknown; structuredContent?: unknown; isError?: boolean };
    try {
      result = (await target.client.callTool(
        { name: tool.name, arguments: args },
        // The listed input schema, so a 2026-07-28 client over HTTP mirrors its x-mcp-header
        // arguments into Mcp-Param-* headers on this first call (Streamable HTTP, "Custom
        // Headers from Tool Parameters"). No output schema: the result is shown as sent.
        {
          timeout: options.timeoutMs,
          toolDefinition: { name: tool.name, inputSchema: tool.inputSchema } as Tool,
        },
      )) as typeof result;
    } catch (error) {
      throw describeRequestError(error, context(`tools/call ${tool.name}`));
    }
    if (options.asJson) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const text = formatResult(result);
      io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    }
    if (result.isError) {
      io.stderr.write(`candor: ${tool.name} reported an error (isError: true).\n`);
      return EXIT.failure;
    }
    return 0;
  } finally {
    await target.close();
  }
}

/**
 * Register `candor call`.
 *
 * @example
 * ```ts
 * registerCall(new Command('candor'));
 * ```
 */
export function registerCall(program: Command): Command {
  const command = program
    .command('call')
    .description('Call one tool on an MCP server and print the result. Destructive tools ask first (or need --yes).')
    .usage('<target> <tool> [json-args] [options]  |  <tool> [json-args] [options] -- <command> [args…]')
    .argument(
      '<operands...>',
      'target (URL, module, config.json#name), tool name, and optionally a JSON object of arguments',
    )
    .option('--arg <key=value>', 'one argument (repeatable); key:=<json> for a JSON value', collect, [])
    .option('-y, --yes', 'call a destructive tool without asking', false)
    .option('--json', 'print the whole result as JSON', false)
    .option('--config <file>', 'client config file with an mcpServers map')
    .option('--server <name>', 'the server of --config to use')
    .option('--timeout <ms>', 'handshake and call timeout in milliseconds', parseTimeout, 60_000);
  return addEnvOptions(addProtocolOption(command))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  candor call http://127.0.0.1:3000/mcp read_file --arg path=README.md',
        `  candor call http://127.0.0.1:3000/mcp grep_search '{"pattern": "TODO", "include": ["**/*.md"]}'`,
        '  candor call list_directory --arg path=. -- npx -y @modelcontextprotocol/server-filesystem .',
        '  candor call --config .cursor/mcp.json --server files read_text_file --arg path=README.md',
        '  candor call --env-file .env search_issues --arg q=bug -- npx -y some-github-server',
      ].join('\n'),
    )
    .action(async function (this: Command, operands: string[], opts: Record<string, unknown>) {
      const { before, command } = splitAtDashDash(this, operands);
      const namedElsewhere = command.length > 0 || typeof opts.config === 'string';
      const targets = namedElsewhere ? [] : before.slice(0, 1);
      const rest = namedElsewhere ? before : before.slice(1);
      if (rest.length === 0) {
        throw new CliError(
          'Which tool? Usage: candor call <target> <tool> [json-args] (candor inspect <target> lists them).',
          {
            exitCode: EXIT.usage,
          },
        );
      }
      if (rest.length > 2) {
        throw new CliError(
          `Too many words: ${rest
            .slice(2)
            .map((w) => JSON.stringify(w))
            .join(' ')}. Pass arguments as one quoted JSON object or with --arg key=value.`,
          { exitCode: EXIT.usage },
        );
      }
      const code = await runCall(
        {
          targets,
          command,
          ...(typeof opts.config === 'string' ? { config: opts.config } : {}),
          ...(typeof opts.server === 'string' ? { server: opts.server } : {}),
          ...commandEnvOf(opts as EnvOptions),
          tool: rest[0]!,
          ...(rest[1] !== undefined ? { json: rest[1] } : {}),
          args: opts.arg as string[],
          yes: opts.yes === true,
          asJson: opts.json === true,
          timeoutMs: opts.timeout as number,
          protocol: protocolOf(opts),
        },
        { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
      );
      if (code !== 0) process.exitCode = code;
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
