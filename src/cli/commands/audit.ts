/**
 * `candor audit <file> [--server S] [--tool GLOB] [--decision allow|ask|deny]
 * [--principal SUB] [--finding secret|injection] [--since 1h] [--json]`: what the gateway
 * decided, from its JSONL audit log.
 */
import { type Command, Option } from 'commander';
import { type AuditQuery, queryAudit, sinceOf } from '../../gateway/audit-query.js';
import { CliError, EXIT } from '../cli-error.js';
import { renderTable } from '../table.js';

interface AuditCliOptions {
  server?: string;
  tool?: string;
  decision?: 'allow' | 'ask' | 'deny' | 'error';
  principal?: string;
  finding?: 'secret' | 'injection';
  since?: string;
  json?: boolean;
}

/**
 * Register `candor audit`.
 *
 * @example
 * ```ts
 * registerAudit(new Command('candor'));
 * ```
 */
export function registerAudit(program: Command): Command {
  return program
    .command('audit')
    .description("Query the gateway's audit log (the file of --audit): who called what, and what was decided.")
    .argument('<file>', 'the JSONL audit log')
    .option('--server <name>', 'only calls of this upstream server')
    .option('--tool <glob>', 'only these tools (a name or glob, e.g. "memory__*")')
    .addOption(new Option('--decision <decision>', 'only this decision').choices(['allow', 'ask', 'deny', 'error']))
    .option('--principal <sub>', "only this person's calls (the token subject; with --auth-*)")
    .addOption(
      new Option('--finding <kind>', 'only calls whose result had a secret or injected instructions').choices([
        'secret',
        'injection',
      ]),
    )
    .option('--since <age>', 'only the last 90s / 15m / 1h / 7d, or since an ISO time')
    .option('--json', 'one JSON entry per line instead of a table')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  candor audit gateway-audit.jsonl --decision deny --since 1h',
        '  candor audit gateway-audit.jsonl --tool "memory__*" --json',
        '  candor audit gateway-audit.jsonl --finding secret --since 1d',
      ].join('\n'),
    )
    .action(async (file: string, opts: AuditCliOptions) => {
      const query: AuditQuery = {};
      if (opts.server !== undefined) query.server = opts.server;
      if (opts.tool !== undefined) query.tool = opts.tool;
      if (opts.decision !== undefined) query.decision = opts.decision;
      if (opts.principal !== undefined) query.principal = opts.principal;
      if (opts.finding !== undefined) query.finding = opts.finding;
      try {
        if (opts.since !== undefined) query.since = sinceOf(opts.since);
        const { entries, skipped } = await queryAudit(file, query);
        if (skipped > 0) process.stderr.write(`candor audit: skipped ${skipped} line(s) that are not audit entries\n`);
        if (opts.json) {
          for (const entry of entries) process.stdout.write(`${JSON.stringify(entry)}\n`);
          return;
        }
        if (entries.length === 0) {
          process.stdout.write('No matching calls.\n');
          return;
        }
        const rows = entries.map((e) => [
          e.time,
          e.principal ?? '-',
          e.tool,
          e.decision,
          e.decidedBy,
          e.outcome,
          `${Math.round(e.durationMs)} ms`,
        ]);
        process.stdout.write(
          `${renderTable({ headers: ['TIME', 'PRINCIPAL', 'TOOL', 'DECISION', 'BY', 'OUTCOME', 'TOOK'], rows })}\n${entries.length} call(s)\n`,
        );
      } catch (error) {
        throw new CliError((error as Error).message, { exitCode: EXIT.usage, cause: error });
      }
    });
}
