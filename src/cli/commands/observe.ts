/**
 * `candor observe [target | -- cmd …] [--calls N] [--tools GLOB…] [--skip GLOB…]
 * [--args FILE] [--workdir DIR] [--exclude GLOB…] [--env K=V…] [--env-file F…]
 * [--format pretty|json|sarif] [--timeout MS] [--protocol VERSION]`: run a stdio server
 * in a throwaway sandbox and check what its tools do. Exit 0 consistent (every tool, or
 * the N of M exercised, as the verdict says), 1 a tool contradicts its hints, 2 could not
 * observe (usage, start failure, platform, a server that hung or died before every tool
 * was seen), 3 not verified (no tool was exercised). `--format json` writes a report
 * with the failure even when it could not observe.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import pc from 'picocolors';
import { CandorError } from '../../errors.js';
import { formatSarif } from '../../lint/reporters/sarif.js';
import { findToolDefinitions } from '../../lint/reporters/tool-definitions.js';
import { lintResultOf } from '../../lint/result.js';
import { type ObserveReport, observe } from '../../observe/observe.js';
import { coverageLine, failedVerdict, sarifWithVerdict, VERDICT_EXIT } from '../../observe/server-verdict.js';
import { OBSERVE_RULES } from '../../observe/verdicts.js';
import { commandEnv } from '../../targets/command-env.js';
import { parseTargets } from '../../targets/parse.js';
import { wrapText } from '../../util/wrap.js';
import { CliError, EXIT } from '../cli-error.js';
import { addEnvOptions } from '../env-options.js';
import { splitAtDashDash } from '../operands.js';
import { packageInfo } from '../package-root.js';
import { addProtocolOption, protocolOf } from '../protocol-flag.js';
import { addServiceOption, servicesOf } from '../service-flag.js';
import { renderTable } from '../table.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1.');
  return n;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The pretty report: a row per tool, then the evidence of each finding. */
export function formatObservePretty(report: ObserveReport, colour = false): string {
  const paint = colour
    ? pc
    : { red: (s: string) => s, yellow: (s: string) => s, green: (s: string) => s, dim: (s: string) => s };
  const rows = report.tools.map((tool) => {
    const ok = tool.calls.filter((c) => c.ok).length;
    const effects = tool.effects;
    const verdict = tool.notExercised
      ? paint.dim('not exercised')
      : tool.findings.some((f) => f.severity !== 'info')
        ? paint.red(
            tool.findings
              .filter((f) => f.severity !== 'info')
              .map((f) => f.ruleId)
              .join(', '),
          )
        : paint.green('consistent');
    return [tool.name, `${ok}/${tool.calls.length}`, effects.length > 0 ? effects.join(', ') : '—', verdict];
  });
  const headline = `${report.label} — ${coverageLine(report)}`;
  const lines = [
    report.verdict === 'consistent'
      ? paint.green(headline)
      : report.verdict === 'partial'
        ? paint.yellow(headline)
        : paint.red(headline),
    '',
    renderTable({ headers: ['TOOL', 'CALLS OK', 'EFFECTS SEEN', 'VERDICT'], rows }),
  ];
  if (report.protocolVersion) lines.push(paint.dim(`protocol ${report.protocolVersion}`));
  for (const finding of report.findings) {
    lines.push(
      '',
      `${finding.severity}  ${finding.ruleId}  ${finding.tool === undefined ? '(server) ' : ''}${finding.message}`,
    );
    for (const evidence of finding.evidence.slice(0, 10)) lines.push(`    ${evidence}`);
    if (finding.evidence.length > 10) lines.push(`    … ${finding.evidence.length - 10} more`);
  }
  if (report.failure) {
    lines.push(
      '',
      report.failure.kind === 'hung'
        ? `Observing stopped: a call of ${report.failure.tool} got no answer in time; the sandbox was killed.`
        : `Observing stopped: the server exited during a call of ${report.failure.tool}.`,
      report.failure.stderr.length === 0
        ? 'It wrote nothing to stderr.'
        : `The server's last stderr lines:\n${report.failure.stderr.map((l) => `  ${l}`).join('\n')}`,
    );
  }
  for (const warning of report.warnings) lines.push('', `warning: ${warning}`);
  if (report.reasons.length > 0) {
    lines.push('', 'Not exercised (no verdict, not "honest"):');
    // Wrapped, never cut: the real cause is often at the end of a long error.
    for (const { tool, reason } of report.reasons)
      lines.push(wrapText(reason, { first: `  ${tool}: `, indent: '      ', width: wrapWidth() }));
  }
  const startup = [...report.startup.diff.created, ...report.startup.diff.modified, ...report.startup.diff.deleted];
  if (startup.length > 0)
    lines.push(
      '',
      `Start-up (not held against any tool): ${startup.length} file change${startup.length === 1 ? '' : 's'}, e.g. ${startup[0]}`,
    );
  return `${lines.join('\n')}\n`;
}

/** The terminal's width for wrapped reasons (100 when not a terminal). */
function wrapWidth(): number {
  return process.stdout.isTTY && process.stdout.columns ? Math.max(40, process.stdout.columns - 1) : 100;
}

/**
 * Register `candor observe`.
 *
 * @example
 * ```ts
 * registerObserve(new Command('candor'));
 * ```
 */
export function registerObserve(program: Command): Command {
  const command = program
    .command('observe')
    .description(
      'Run a stdio server in a throwaway sandbox, call its tools and check what they do against their hints.',
    )
    .argument('[target...]', 'a config entry (file.json#name) or -- a stdio command')
    .option('--config <file>', 'a client config file with mcpServers')
    .option('--server <name>', 'with --config: the entry to observe')
    .option('--calls <n>', 'calls per tool (pairs repeat the same arguments)', positiveInt, 2)
    .option('--tools <glob>', 'only tools matching (repeatable)', collect, [])
    .option('--skip <glob>', 'leave out tools matching (repeatable)', collect, [])
    .option(
      '--args <file>',
      'JSON: exact arguments per tool ({ "tool": { … } } or a list per tool); {workdir} and paths in your workdir name the copy',
    )
    .option('--workdir <dir>', 'copied into the sandbox as the server working directory (default: .)')
    .option(
      '--exclude <glob>',
      'leave matching paths (relative to the workdir) out of the copy, e.g. .git (repeatable)',
      collect,
      [],
    )
    .addOption(new Option('--format <format>', 'output format').choices(['pretty', 'json', 'sarif']).default('pretty'))
    .option('--timeout <ms>', 'per-call timeout; a hung call kills the sandbox', positiveInt, 10_000)
    .option(
      '--source <dir>',
      "with --format sarif: where to find each tool's definition, so a result points at its line (default: the workdir)",
    )
    .addHelpText(
      'after',
      [
        '',
        'Linux only: needs bubblewrap and strace. The server works on a throwaway copy of the',
        'workdir (node_modules left out, .git copied within the 100 MB cap) with a fresh HOME',
        'and TMPDIR and loopback-only network. The rest of the real filesystem is visible to it',
        'read-only: it can read, never change, your files. Arguments (server and --args) that',
        'name your workdir, or say {workdir}, are pointed at the copy. Only --env/--env-file',
        "(and a config entry's env) reach the server, over PATH and LANG.",
        '',
        'A call is "ok" when the tool did its work: no isError and no error answered as text.',
        'Tools only an app calls (_meta.ui.visibility without "model") are skipped unless --tools names them.',
        "Paths in findings are relative to the workdir; ~ and $TMPDIR are the sandbox's own.",
        '',
        'Every report states "exercised N of M tools": a tool is exercised when a call did its',
        'work (an isError answer, or a JSON body with success: false or an error field, is not).',
        'Verdicts and exit codes:',
        '  0  consistent                      every tool exercised, none contradicts its hints',
        '  0  consistent (N of M exercised)   the exercised tools are consistent; the rest are',
        '                                     listed with why they were not exercised',
        '  1  contradictions                  a tool contradicts its hints',
        '  2  failed                          could not observe: bad usage, no sandbox, the server',
        '                                     failed to start, or a call hung or the server died',
        '  3  not verified                    no tool was exercised: nothing was checked',
        '--format json writes its report also when observing failed (exit 2): a hang, or a server that did not start.',
        '',
        'Examples:',
        '  npm install -g @modelcontextprotocol/server-memory   # the sandbox has no network: install first',
        '  candor observe -- mcp-server-memory',
        '  candor observe --env MEMORY_FILE_PATH={workdir}/memory.jsonl -- mcp-server-memory',
        '  candor observe .cursor/mcp.json#notes --tools "get_*" --format sarif > observe.sarif',
        '  candor observe --service postgres=DATABASE_URL -- node db-server.js   # a seeded PostgreSQL beside it',
      ].join('\n'),
    );
  return addEnvOptions(addProtocolOption(addServiceOption(command)), { sandboxed: true }).action(
    async (operands: string[], opts: Record<string, unknown>, command: Command) => {
      const { before, command: cmd } = splitAtDashDash(command, operands);
      const targets = await parseTargets({
        targets: before,
        command: cmd,
        ...(typeof opts.config === 'string' ? { config: opts.config } : {}),
        ...(typeof opts.server === 'string' ? { server: opts.server } : {}),
      }).catch((error: Error) => {
        throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
      });
      if (targets.length !== 1 || targets[0]!.kind !== 'stdio') {
        throw new CliError(
          'candor observe takes one stdio server: -- <command> [args], or a config entry with a command.',
          {
            exitCode: EXIT.usage,
          },
        );
      }
      const target = targets[0] as Extract<(typeof targets)[number], { kind: 'stdio' }>;
      let given: Record<string, Record<string, unknown> | Array<Record<string, unknown>>> | undefined;
      if (typeof opts.args === 'string') {
        try {
          given = JSON.parse(await readFile(opts.args, 'utf8'));
        } catch (error) {
          throw new CliError(`--args ${opts.args}: ${(error as Error).message}`, { exitCode: EXIT.usage });
        }
      }
      // Only what is asked for reaches the sandbox: --env pairs and files, never the caller's whole environment.
      const extra = await commandEnv({
        pairs: (opts.env as string[] | undefined) ?? [],
        files: (opts.envFile as string[] | undefined) ?? [],
        inherit: {},
      }).catch((error: Error) => {
        throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
      });
      const env = { ...(target.env ?? {}), ...extra };
      const services = servicesOf(opts);
      const report = await observe({
        command: target.command,
        args: target.args,
        ...(Object.keys(env).length > 0 ? { env } : {}),
        workdir: path.resolve(typeof opts.workdir === 'string' ? opts.workdir : (target.cwd ?? '.')),
        exclude: opts.exclude as string[],
        calls: opts.calls as number,
        tools: opts.tools as string[],
        skip: opts.skip as string[],
        ...(given ? { arguments: given } : {}),
        timeoutMs: opts.timeout as number,
        protocol: protocolOf(opts) ?? target.protocol ?? 'auto',
        ...(services.length > 0 ? { services } : {}),
      }).catch((error: unknown) => {
        // Could not observe at all: exit 2, with the server's own words when it said any (and a report in JSON).
        if (error instanceof CandorError && (error.code.startsWith('observe_') || error.code === 'target_protocol')) {
          if (opts.format === 'json') {
            const failed = { ...failedVerdict(error.message), tools: [], findings: [], warnings: [] };
            process.stdout.write(`${JSON.stringify(failed, null, 2)}\n`);
          }
          throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
        }
        throw error;
      });
      const format = opts.format as 'pretty' | 'json' | 'sarif';
      if (format === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else if (format === 'sarif') {
        const findings = report.findings.map(({ evidence, ...finding }) => ({
          ...finding,
          message: `${finding.message} Evidence: ${evidence.join('; ')}`,
        }));
        process.stdout.write(
          sarifWithVerdict(
            formatSarif(
              [
                {
                  label: target.label,
                  target,
                  status: 'ok',
                  durationMs: 0,
                  result: lintResultOf(findings, [], report.tools.length),
                },
              ],
              {
                version: packageInfo().version,
                rules: OBSERVE_RULES,
                definitions: await findToolDefinitions(
                  report.findings.flatMap((f) => (f.tool === undefined ? [] : [f.tool])),
                  path.resolve(
                    typeof opts.source === 'string'
                      ? opts.source
                      : typeof opts.workdir === 'string'
                        ? opts.workdir
                        : (target.cwd ?? '.'),
                  ),
                ),
              },
            ),
            report,
          ),
        );
      } else process.stdout.write(formatObservePretty(report, process.stdout.isTTY === true && !process.env.NO_COLOR));
      process.exitCode = VERDICT_EXIT[report.verdict];
      for (const warning of report.warnings)
        if (format !== 'pretty') process.stderr.write(`candor: warning: ${warning}\n`);
    },
  );
}
