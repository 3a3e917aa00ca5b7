/**
 * `candor inspect <target>`: connect to any MCP server and show its tools —
 * name, title, the four hints (marked "(default)" where the server sent nothing
 * and the spec's worst case applies), tags, UI link — then its resources, resource
 * templates and prompts. `--json` for machines.
 *
 * ```
 * candor inspect http://127.0.0.1:3000/mcp
 * candor inspect --json -- npx -y @modelcontextprotocol/server-filesystem .
 * ```
 */

import { type Command, InvalidArgumentError } from 'commander';
import type { ServerOffers } from '../../targets/offers.js';
import type { TargetInput } from '../../targets/parse.js';
import { CliError, EXIT } from '../cli-error.js';
import { addEnvOptions, commandEnvOf, type EnvOptions } from '../env-options.js';
import { splitAtDashDash } from '../operands.js';
import { addProtocolOption, type ProtocolChoice, protocolOf } from '../protocol-flag.js';
import { renderOffers } from '../server-offers.js';
import { HINT_NAMES, type ListedTool, summarizeTool } from '../tool-summary.js';
import { defaultsNote, toolTable } from '../tool-table.js';

/** Everything `candor inspect` needs. */
export interface InspectOptions {
  targets: string[];
  command: string[];
  config?: string;
  server?: string;
  /** `--env` / `--env-file` for a `--` command. */
  commandEnv?: TargetInput['commandEnv'];
  asJson: boolean;
  timeoutMs: number;
  colour?: boolean;
  /** `--protocol`: the era to speak (default `auto`). */
  protocol?: ProtocolChoice;
}

/** The `--json` document: the tools, then the resources, resource templates and prompts. */
export interface InspectReport extends ServerOffers {
  target: string;
  server?: { name: string; version: string; title?: string };
  /** The protocol version spoken: `2026-07-28` or the 2025 version `initialize` agreed on. */
  protocolVersion?: string;
  tools: Array<
    ReturnType<typeof summarizeTool> & {
      description?: string;
      hintsOnWire: string[];
      hintsDefaulted: string[];
      /** As the server sent them (a reviewer writing --args for observe needs them). */
      inputSchema?: unknown;
    }
  >;
}

/**
 * Connect, list every tool, and build the report.
 *
 * @example
 * ```ts
 * const report = await inspectTarget({ targets: ['http://127.0.0.1:3000/mcp'], command: [], asJson: true, timeoutMs: 30_000 });
 * report.tools.map((t) => t.name);
 * ```
 */
export async function inspectTarget(options: InspectOptions): Promise<{ report: InspectReport; tools: ListedTool[] }> {
  // Loaded here, not at the top: the SDK client is most of the CLI's start-up time.
  const { openTargetWords, listTargetTools, listTargetOffers } = await import('../open-target.js');
  const target = await openTargetWords(options, options.timeoutMs);
  try {
    const tools = await listTargetTools(target, options.timeoutMs);
    const offers = await listTargetOffers(target, options.timeoutMs);
    const info = target.client.getServerVersion();
    const protocolVersion = target.client.getNegotiatedProtocolVersion();
    const report: InspectReport = {
      target: target.label,
      ...(protocolVersion ? { protocolVersion } : {}),
      ...(info
        ? { server: { name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) } }
        : {}),
      tools: tools.map((tool) => {
        const summary = summarizeTool(tool);
        return {
          ...summary,
          ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
          hintsOnWire: HINT_NAMES.filter((h) => summary.hints[h].source === 'wire'),
          hintsDefaulted: HINT_NAMES.filter((h) => summary.hints[h].source === 'default'),
          ...(tool.inputSchema === undefined ? {} : { inputSchema: tool.inputSchema }),
        };
      }),
      ...offers,
    };
    return { report, tools };
  } finally {
    await target.close();
  }
}

/**
 * Render the human report.
 *
 * @example
 * ```ts
 * process.stdout.write(renderInspect(report, tools, { colour: false }));
 * ```
 */
export function renderInspect(
  report: InspectReport,
  tools: readonly ListedTool[],
  options: { colour: boolean },
): string {
  const server = report.server ? `${report.server.name} ${report.server.version}` : 'unknown server';
  const era = report.protocolVersion ? ` · protocol ${report.protocolVersion}` : '';
  const lines = [`${server} · ${tools.length} tool${tools.length === 1 ? '' : 's'}${era} · ${report.target}`, ''];
  lines.push(tools.length > 0 ? toolTable(tools, { colour: options.colour }) : '(no tools)');
  const note = defaultsNote(tools);
  if (note) lines.push('', note);
  const offers = renderOffers(report);
  if (offers.length > 0) lines.push('', ...offers.slice(0, -1));
  return `${lines.join('\n')}\n`;
}

/** Commander parser for `--timeout <ms>`. */
export function parseTimeout(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive number of milliseconds.');
  return n;
}

/**
 * Register `candor inspect`.
 *
 * @example
 * ```ts
 * registerInspect(new Command('candor'));
 * ```
 */
export function registerInspect(program: Command): Command {
  const command = program
    .command('inspect')
    .description(
      'Show what an MCP server offers: its tools (title, the four hints and which are spec defaults, tags, UI link), resources, resource templates and prompts.',
    )
    .usage('<target> [options]  |  [options] -- <command> [args…]')
    .argument('[target...]', 'http(s):// URL, module file (.js/.ts), or config file entry (mcp.json#name)')
    .option('--json', 'print the report as JSON', false)
    .option('--config <file>', 'client config file with an mcpServers map')
    .option('--server <name>', 'the server of --config to inspect')
    .option('--timeout <ms>', 'handshake and request timeout in milliseconds', parseTimeout, 30_000);
  return addEnvOptions(addProtocolOption(command))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  candor inspect http://127.0.0.1:3000/mcp',
        '  candor inspect ./my-tools.js',
        '  candor inspect --json -- npx -y @modelcontextprotocol/server-filesystem .',
        '  candor inspect ~/.cursor/mcp.json#github',
        '  candor inspect --protocol 2025-11-25 http://127.0.0.1:3000/mcp',
        '  GITHUB_TOKEN=… candor inspect -- npx -y @modelcontextprotocol/server-github',
        '  candor inspect --env-file .env --env LOG_LEVEL=debug -- node server.js',
      ].join('\n'),
    )
    .action(async function (this: Command, words: string[], opts: Record<string, unknown>) {
      const { before, command } = splitAtDashDash(this, words);
      if (before.length > 1) {
        throw new CliError(`inspect takes one target; got ${before.length}.`, { exitCode: EXIT.usage });
      }
      const { report, tools } = await inspectTarget({
        targets: before,
        command,
        ...(typeof opts.config === 'string' ? { config: opts.config } : {}),
        ...(typeof opts.server === 'string' ? { server: opts.server } : {}),
        ...commandEnvOf(opts as EnvOptions),
        asJson: opts.json === true,
        timeoutMs: opts.timeout as number,
        protocol: protocolOf(opts),
      });
      const colour = process.stdout.isTTY === true && !process.env.NO_COLOR;
      process.stdout.write(
        opts.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderInspect(report, tools, { colour }),
      );
    });
}
