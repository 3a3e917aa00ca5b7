/**
 * `candor observe [target | -- cmd …] [--calls N] [--tools GLOB…] [--skip GLOB…]
 * [--args FILE] [--workdir DIR] [--format pretty|json|sarif] [--timeout MS]` (issue 12):
 * run a stdio server in a throwaway sandbox and check what its tools do.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import pc from 'picocolors';
import { formatSarif } from '../../lint/reporters/sarif.js';
import { type ObserveReport, observe } from '../../observe/observe.js';
import { OBSERVE_RULES } from '../../observe/verdicts.js';
import { parseTargets } from '../../targets/parse.js';
import { CliError, EXIT } from '../cli-error.js';
import { splitAtDashDash } from '../operands.js';
import { packageInfo } from '../package-root.js';
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
    const effects = new Set<string>();
    for (const call of tool.calls) {
      if (call.diff.created.length + call.diff.modified.length > 0) effects.add('wrote');
      if (call.diff.deleted.length > 0 || call.effects.some((e) => e.kind === 'delete')) effects.add('deleted');
      if (call.effects.some((e) => e.kind === 'exec')) effects.add('ran a program');
      if (call.effects.some((e) => e.kind === 'connect' && !e.loopback && e.family !== 'unix')) effects.add('network');
    }
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
    return [tool.name, `${ok}/${tool.calls.length}`, effects.size > 0 ? [...effects].join(', ') : '—', verdict];
  });
  const lines = [renderTable({ headers: ['TOOL', 'CALLS OK', 'EFFECTS SEEN', 'VERDICT'], rows })];
  for (const finding of report.findings) {
    lines.push('', `${finding.severity === 'info' ? 'info' : finding.severity}  ${finding.ruleId}  ${finding.message}`);
    for (const evidence of finding.evidence.slice(0, 10)) lines.push(`    ${evidence}`);
    if (finding.evidence.length > 10) lines.push(`    … ${finding.evidence.length - 10} more`);
  }
  const skipped = report.tools.filter((t) => t.notExercised);
  if (skipped.length > 0) {
    lines.push('', 'Not exercised (no verdict, not "honest"):');
    for (const tool of skipped) lines.push(`  ${tool.name}: ${tool.notExercised}`);
  }
  const startup = [...report.startup.diff.created, ...report.startup.diff.modified, ...report.startup.diff.deleted];
  if (startup.length > 0)
    lines.push(
      '',
      `Start-up (not held against any tool): ${startup.length} file change${startup.length === 1 ? '' : 's'}, e.g. ${startup[0]}`,
    );
  return `${lines.join('\n')}\n`;
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
  return program
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
    .option('--args <file>', 'JSON: exact arguments per tool ({ "tool": { … } } or a list per tool)')
    .option('--workdir <dir>', 'copied into the sandbox as the server working directory (default: .)')
    .addOption(new Option('--format <format>', 'output format').choices(['pretty', 'json', 'sarif']).default('pretty'))
    .option('--timeout <ms>', 'per-call timeout; a hung call kills the sandbox', positiveInt, 10_000)
    .addHelpText(
      'after',
      [
        '',
        'Linux only: needs bubblewrap and strace. The server never sees the real working',
        'directory, HOME or network: it runs on throwaway copies, with loopback only.',
        'Exit 1 when a tool contradicts its hints.',
        '',
        'Examples:',
        '  npm install -g @modelcontextprotocol/server-memory   # the sandbox has no network: install first',
        '  candor observe -- mcp-server-memory',
        '  candor observe .cursor/mcp.json#notes --tools "get_*" --format sarif > observe.sarif',
      ].join('\n'),
    )
    .action(async (operands: string[], opts: Record<string, unknown>, command: Command) => {
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
      const report = await observe({
        command: target.command,
        args: target.args,
        ...(target.env ? { env: target.env } : {}),
        workdir: path.resolve(typeof opts.workdir === 'string' ? opts.workdir : (target.cwd ?? '.')),
        calls: opts.calls as number,
        tools: opts.tools as string[],
        skip: opts.skip as string[],
        ...(given ? { arguments: given } : {}),
        timeoutMs: opts.timeout as number,
      });
      const format = opts.format as 'pretty' | 'json' | 'sarif';
      if (format === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else if (format === 'sarif') {
        const findings = report.findings.map(({ evidence, ...finding }) => ({
          ...finding,
          message: `${finding.message} Evidence: ${evidence.join('; ')}`,
        }));
        process.stdout.write(
          formatSarif(
            [
              {
                label: target.label,
                target,
                status: 'ok',
                durationMs: 0,
                result: {
                  findings,
                  suppressed: [],
                  toolCount: report.tools.length,
                  errorCount: findings.filter((f) => f.severity === 'error').length,
                  warningCount: findings.filter((f) => f.severity === 'warning').length,
                  infoCount: findings.filter((f) => f.severity === 'info').length,
                },
              },
            ],
            { version: packageInfo().version, rules: OBSERVE_RULES },
          ),
        );
      } else process.stdout.write(formatObservePretty(report, process.stdout.isTTY === true && !process.env.NO_COLOR));
      if (report.findings.some((f) => f.severity !== 'info')) process.exitCode = 1;
    });
}
