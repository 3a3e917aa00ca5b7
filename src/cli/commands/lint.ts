/**
 * `candor lint <target…>`: audit the annotations of any MCP server.
 *
 * ```
 * candor lint -- npx -y @modelcontextprotocol/server-filesystem /tmp
 * candor lint http://127.0.0.1:3000/mcp --format sarif --output candor.sarif
 * candor lint ~/.cursor/mcp.json --profile openai --max-warnings 0
 * ```
 */
import { writeFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { confineTargets } from '../../gateway/sandboxing.js';
import { loadLintConfig } from '../../lint/config.js';
import { explainRule } from '../../lint/explain.js';
import { isProfileName, PROFILES } from '../../lint/profiles.js';
import { formatJson } from '../../lint/reporters/json.js';
import { formatPretty } from '../../lint/reporters/pretty.js';
import { formatSarif } from '../../lint/reporters/sarif.js';
import { exitCode, summarise } from '../../lint/reporters/summary.js';
import { findRule, RULES } from '../../lint/rules/index.js';
import type { LintConfig, ProfileName } from '../../lint/types.js';
import { OBSERVE_RULES } from '../../observe/verdicts.js';
import { type LintProgress, lintTargets } from '../../targets/lint-targets.js';
import { parseTargets, type TargetInput } from '../../targets/parse.js';
import { closestNames } from '../../util/edit-distance.js';
import { logSettingsFrom, stderrLogger } from '../../util/logger.js';
import { CliError, EXIT } from '../cli-error.js';
import { addEnvOptions, commandEnvOf, type EnvOptions } from '../env-options.js';
import { addProtocolOption, type ProtocolChoice, protocolOf } from '../protocol-flag.js';

/** Parsed options of `candor lint`. */
export interface LintCommandOptions {
  targets: string[];
  /** Words after `--`: a stdio command. */
  command?: string[];
  config?: string;
  server?: string;
  /** `--env` / `--env-file` for the `--` command. */
  commandEnv?: TargetInput['commandEnv'];
  profile?: ProfileName;
  format?: 'pretty' | 'json' | 'sarif';
  maxWarnings?: number;
  concurrency?: number;
  timeoutMs?: number;
  /** `--protocol`: the era to speak (default `auto`). */
  protocol?: ProtocolChoice;
  /** The candor config file with the `lint` section (default: found from the working directory). */
  lintConfig?: string;
  /** Write the report to this file instead of stdout. */
  output?: string;
  cwd?: string;
}

/** Where the command writes: real streams in the CLI, buffers in tests. */
export interface LintCommandIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
}

/**
 * Run `candor lint` and return the exit code (0 clean, 1 errors, failed servers or too
 * many warnings). Throws `CliError` (exit 2) for a bad command line or config.
 *
 * @example
 * ```ts
 * const code = await runLint({ targets: [], command: ['node', 'server.js'], format: 'json' }, { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runLint(options: LintCommandOptions, io: LintCommandIo): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  const env = io.env ?? process.env;
  let config: LintConfig;
  let targets: Awaited<ReturnType<typeof parseTargets>>;
  try {
    ({ config } = await loadLintConfig({ cwd, ...(options.lintConfig ? { file: options.lintConfig } : {}) }));
    targets = await parseTargets({
      targets: options.targets,
      ...(options.command ? { command: options.command } : {}),
      ...(options.config ? { config: options.config } : {}),
      ...(options.server ? { server: options.server } : {}),
      ...(options.commandEnv ? { commandEnv: options.commandEnv } : {}),
      cwd,
    });
  } catch (error) {
    throw new CliError((error as Error).message, { exitCode: EXIT.usage, cause: error });
  }
  const lintConfig: LintConfig = { ...config, ...(options.profile ? { profile: options.profile } : {}) };

  // A config entry that says "sandbox" runs in it, as the gateway runs it; where that is
  // impossible it is reported failed with the gateway's line, never run unsandboxed.
  const confined = await confineTargets(targets, {
    logger: { ...stderrLogger({ name: 'candor lint', ...logSettingsFrom(process.env) }), error() {} },
  }).catch((error: Error) => {
    throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
  });
  const progress = targets.length > 1 && io.stderr.isTTY === true ? new ProgressLine(io.stderr) : undefined;
  let reports: Awaited<ReturnType<typeof lintTargets>>;
  try {
    reports = await lintTargets(confined.targets, {
      lint: lintConfig,
      concurrency: options.concurrency ?? 4,
      timeoutMs: options.timeoutMs ?? 30_000,
      ...(options.protocol ? { era: options.protocol } : {}),
      ...(progress ? { onProgress: (e: LintProgress) => progress.update(e) } : {}),
    });
  } finally {
    await confined.dispose();
  }
  progress?.clear();

  const format = options.format ?? 'pretty';
  const toFile = options.output !== undefined;
  const color = !toFile && io.stdout.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
  const text =
    format === 'json'
      ? formatJson(reports)
      : format === 'sarif'
        ? formatSarif(reports, { cwd })
        : formatPretty(reports, { color: color || Boolean(env.FORCE_COLOR && env.FORCE_COLOR !== '0') });
  if (toFile) {
    await writeFile(options.output!, text);
    const s = summarise(reports);
    io.stderr.write(
      `Wrote ${options.output} (${s.errors} errors, ${s.warnings} warnings, ${s.failedServers} failed servers).\n`,
    );
  } else {
    io.stdout.write(text);
  }
  return exitCode(summarise(reports), options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings });
}

/** One rewritten stderr line while several servers are checked (TTY only). */
class ProgressLine {
  readonly #stream: LintCommandIo['stderr'];
  readonly #running: string[] = [];
  #finished = 0;

  constructor(stream: LintCommandIo['stderr']) {
    this.#stream = stream;
  }

  update(event: LintProgress): void {
    if (event.type === 'start') {
      this.#running.push(event.label);
    } else {
      this.#running.splice(this.#running.indexOf(event.report.label), 1);
      this.#finished = event.finished;
    }
    const running = this.#running.join(', ');
    const line = `linting ${this.#finished}/${event.total} servers${running ? ` · ${running}` : ''}`;
    this.#stream.write(`\r\x1b[2K${line.length > 100 ? `${line.slice(0, 99)}…` : line}`);
  }

  clear(): void {
    this.#stream.write('\r\x1b[2K');
  }
}

function positiveInteger(name: string, { allowZero = false } = {}) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) {
      throw new InvalidArgumentError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer.`);
    }
    return n;
  };
}

/**
 * Register `candor lint` on the CLI program (commander 14).
 *
 * @example
 * ```ts
 * const program = new Command('candor');
 * registerLint(program);
 * await program.parseAsync(process.argv);
 * ```
 */
export function registerLint(program: Command): Command {
  const command = program
    .command('lint')
    .description('Audit the tool annotations of MCP servers: a URL, a module, a client config file, or -- <command>.')
    .argument('[targets...]', 'http(s):// URL, module file (.js/.ts), config file (mcp.json, mcp.json#name)')
    .option('--config <file>', 'client config file with an mcpServers (or VS Code servers) map; lints every server')
    .option('--server <name>', 'only this server of --config')
    .addOption(new Option('--profile <profile>', 'rule profile').choices([...PROFILES]))
    .addOption(new Option('--format <format>', 'report format').choices(['pretty', 'json', 'sarif']).default('pretty'))
    .option(
      '--max-warnings <n>',
      'exit 1 when there are more warnings than this',
      positiveInteger('--max-warnings', { allowZero: true }),
    )
    .option('--concurrency <n>', 'servers checked at once', positiveInteger('--concurrency'), 4)
    .option('--timeout <ms>', 'handshake and request timeout per server', positiveInteger('--timeout'), 30_000)
    .option(
      '--lint-config <file>',
      'candor config with a "lint" section (default: candor.config.json or package.json "candor", found upwards)',
    )
    .option('-o, --output <file>', 'write the report to a file')
    .option('--explain <rule>', 'print what a lint or observe rule checks and why, then exit');
  return addEnvOptions(addProtocolOption(command))
    .addHelpText(
      'after',
      '\nExamples:\n  candor lint -- npx -y @modelcontextprotocol/server-filesystem /tmp\n  GITHUB_TOKEN=… candor lint -- npx -y @modelcontextprotocol/server-github\n  candor lint http://127.0.0.1:3000/mcp --format sarif -o candor.sarif\n  candor lint ~/.cursor/mcp.json --profile openai --max-warnings 0',
    )
    .action(async function (this: Command, words: string[], opts: Record<string, unknown>) {
      // Everything after `--` is a command to run over stdio; commander hands it over as
      // operands, so split it off using the raw argv of the root program.
      if (typeof opts.explain === 'string') {
        process.stdout.write(explainCommand(opts.explain));
        return;
      }
      let root: Command = this;
      while (root.parent) root = root.parent;
      const raw = (root as unknown as { rawArgs?: string[] }).rawArgs ?? [];
      const dash = raw.indexOf('--');
      const tail = dash === -1 ? [] : raw.slice(dash + 1);
      const targets = tail.length > 0 ? words.slice(0, words.length - tail.length) : words;
      if (opts.profile !== undefined && !isProfileName(opts.profile)) {
        throw new CliError(`Unknown profile ${String(opts.profile)}.`, { exitCode: EXIT.usage });
      }
      const code = await runLint(
        {
          targets,
          ...(tail.length > 0 ? { command: tail } : {}),
          ...(typeof opts.config === 'string' ? { config: opts.config } : {}),
          ...(typeof opts.server === 'string' ? { server: opts.server } : {}),
          ...commandEnvOf(opts as EnvOptions),
          ...(opts.profile ? { profile: opts.profile as ProfileName } : {}),
          format: opts.format as LintCommandOptions['format'],
          ...(typeof opts.maxWarnings === 'number' ? { maxWarnings: opts.maxWarnings } : {}),
          concurrency: opts.concurrency as number,
          timeoutMs: opts.timeout as number,
          protocol: protocolOf(opts),
          ...(typeof opts.lintConfig === 'string' ? { lintConfig: opts.lintConfig } : {}),
          ...(typeof opts.output === 'string' ? { output: opts.output } : {}),
        },
        { stdout: process.stdout, stderr: process.stderr },
      );
      if (code !== 0) process.exitCode = code;
    });
}

/** The text of `candor lint --explain RULE`; an unknown rule gets the closest ids. */
function explainCommand(id: string): string {
  const rule = findRule(id) ?? OBSERVE_RULES.find((r) => r.id === id);
  if (rule) return explainRule(rule);
  const ids = [...RULES, ...OBSERVE_RULES].map((r) => r.id);
  const close = closestNames(id, ids);
  throw new CliError(
    `No lint rule ${JSON.stringify(id)}.${close.length > 0 ? ` Did you mean ${close.join(', ')}?` : ''} The rules: ${ids.join(', ')}.`,
    { exitCode: EXIT.usage },
  );
}
