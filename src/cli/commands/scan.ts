/**
 * `candor scan <package | server.json | URL | file.json#name | -- command …>`:
 * from a package name to a verdict in one command.
 * Exit 0 consistent (all tools, or N of M exercised), 1 contradictions, 2 could not
 * scan (or a call hung), 3 not verified (no tool was exercised).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { isCandorError } from '../../errors.js';
import { failedVerdict, VERDICT_EXIT } from '../../observe/server-verdict.js';
import { badgeSvg } from '../../scan/badge.js';
import { readTargetList, runBatch } from '../../scan/batch.js';
import { formatIndex } from '../../scan/batch-index.js';
import { mergeServices, parseListEntry } from '../../scan/list-entry.js';
import { registryEntries } from '../../scan/registry-export.js';
import { formatScan, SCAN_FORMATS, type ScanFormat } from '../../scan/report.js';
import { isServerJson, scanTarget } from '../../scan/scan-target.js';
import { serverJsonWithVerdict } from '../../scan/server-json-verdict.js';
import { commandEnv } from '../../targets/command-env.js';
import { CliError, EXIT } from '../cli-error.js';
import { addEnvOptions } from '../env-options.js';
import { splitAtDashDash } from '../operands.js';
import { packageInfo } from '../package-root.js';
import { addProtocolOption, protocolOf } from '../protocol-flag.js';
import { addServiceOption, servicesOf } from '../service-flag.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1.');
  return n;
}

/** Whether a word names a JSON file that is an MCP Registry export (a list of servers, not one). */
async function isRegistryExport(word: string): Promise<boolean> {
  if (!/\.json$/i.test(word)) return false;
  try {
    return registryEntries(JSON.parse(await readFile(word, 'utf8'))) !== undefined;
  } catch {
    return false;
  }
}

/** Write a badge where the person asked, saying so on stderr. */
async function writeBadge(file: string, verdict: Parameters<typeof badgeSvg>[0]): Promise<void> {
  await writeFile(file, badgeSvg(verdict)).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`--badge ${file}: cannot write the badge (${error.code ?? error.message}).`, {
      exitCode: EXIT.usage,
      cause: error,
    });
  });
  process.stderr.write(`candor scan: wrote the badge to ${file}\n`);
}

const HELP = [
  '',
  'Targets: an npm package (installed into a throwaway folder under ~/.cache/candor/scan by',
  "npm in the sandbox, network only to npm's registry), an MCP Registry server.json (its first",
  'npm stdio package, else its first remote), a URL (Streamable HTTP: lint, door scan and pins',
  'only, observe cannot sandbox a remote server), a config entry, or -- a stdio command.',
  'A local server starts once in the sandbox (no network): the scan at the door, lint,',
  'observe and the pin hashes all read that start.',
  '',
  'Every report states "exercised N of M tools": a tool is exercised when a call did its',
  'work (an isError answer, or a JSON body with success: false or an error field, is not).',
  'Verdicts and exit codes:',
  '  0  consistent                      every tool exercised, no error-level finding',
  '  0  consistent (N of M exercised)   the exercised tools are consistent; the report lists',
  '                                     why each other tool was not exercised',
  '  1  contradictions                  an error-level lint or observe finding',
  "  2  failed                          could not scan (npm's message for a package it cannot",
  "                                     install, the server's stderr when it does not start, the",
  '                                     reason for an invalid server.json), or a call hung',
  '  3  not verified                    no tool was exercised (a remote server: only its',
  '                                     definitions were checked), so nothing was verified',
  '--format json writes its report also when the scan failed (exit 2): a hang, a failed install or start.',
  'With --list, the exit code is the worst of the servers: 2, then 1, then 3, then 0.',
  '',
  'Examples:',
  '  candor scan @modelcontextprotocol/server-memory',
  '  candor scan @modelcontextprotocol/server-filesystem@2025.8.21 --format html > card.html',
  '  candor scan ./server.json --env API_KEY=… --budget 120',
  '  candor scan http://127.0.0.1:3000/mcp',
  '  candor scan .cursor/mcp.json#notes --format sarif > scan.sarif',
  '  candor scan -- node ./dist/server.js',
  '  candor scan --list servers.txt --jobs 2 --out scan-out',
  '  candor scan --badge candor.svg -- node ./dist/server.js',
  '  candor scan --list allow-list.json --out scan-out   # an MCP Registry export',
  '',
  "A list is one target per line, a JSON array of targets, or an MCP Registry export (the API's",
  '{ "servers": [...] } answer, or an array of server.json documents): each entry is written to',
  '<out>/server-json/ and scanned as a server.json; entries the registry marks deleted are left out.',
].join('\n');

/**
 * Register `candor scan`.
 *
 * @example
 * ```ts
 * registerScan(new Command('candor'));
 * ```
 */
export function registerScan(program: Command): Command {
  const command = program
    .command('scan')
    .description('Install or start a server (sandboxed) and report whether its tools do what their hints say.')
    .argument(
      '[target...]',
      'an npm package spec (name, name@1.2.3), a server.json, a URL, a config entry (file.json#name), or -- a stdio command',
    )
    .addOption(
      new Option(
        '--format <format>',
        'report format (server-json: the target server.json with the verdict in its _meta)',
      )
        .choices([...SCAN_FORMATS, 'server-json'])
        .default('pretty'),
    )
    .option('--workdir <dir>', 'copied into the sandbox as the working directory (default: a generated one)')
    .option('--skip <glob>', 'leave out tools matching (repeatable)', (v: string, prev: string[]) => [...prev, v], [])
    .option('--allow-scripts', "run the package's install scripts (off: npm install --ignore-scripts)")
    .option('--timeout <ms>', 'per-call timeout; a hung call kills the sandbox', positiveInt, 10_000)
    .option('--allow-private-network', "let a server.json's remote be on a private, loopback or link-local address")
    .option(
      '--list <file>',
      'scan every target of a list (one per line, a JSON array, or an MCP Registry export); needs --out',
    )
    .option('--out <dir>', 'with --list: write one report per server (JSON, Markdown, HTML) and an index here')
    .option('--jobs <n>', 'with --list: servers scanned at the same time', positiveInt, 1)
    .option('--force', 'with --list: scan servers again that are finished in --out')
    .option(
      '--badge <file>',
      'write an SVG badge of the verdict and its coverage ("candor | consistent 12/12") for a README; with --list, every server gets <out>/<name>.svg',
    )
    .option(
      '--budget <seconds>',
      'seconds per server, install included; then the rest is "out of time"',
      positiveInt,
      180,
    )
    .addHelpText('after', HELP);
  return addEnvOptions(addProtocolOption(addServiceOption(command)), { sandboxed: true }).action(
    async (operands: string[], opts: Record<string, unknown>, cmd: Command) => {
      const progress = (line: string) => process.stderr.write(`candor scan: ${line}\n`);
      const { before, command: argv } = splitAtDashDash(cmd, operands);
      const env = await commandEnv({
        pairs: (opts.env as string[] | undefined) ?? [],
        files: (opts.envFile as string[] | undefined) ?? [],
        inherit: {},
      }).catch((error: Error) => {
        throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
      });
      const label = argv.length > 0 ? argv.join(' ') : before.join(' ');
      const scanOptions = {
        env,
        ...(typeof opts.workdir === 'string' ? { workdir: opts.workdir } : {}),
        cacheDir: path.join(homedir(), '.cache', 'candor'),
        allowScripts: opts.allowScripts === true,
        allowPrivateNetwork: opts.allowPrivateNetwork === true,
        skip: opts.skip as string[],
        timeoutMs: opts.timeout as number,
        budgetSeconds: opts.budget as number,
        ...(protocolOf(opts) ? { protocol: protocolOf(opts) } : {}),
        services: servicesOf(opts),
        candorVersion: packageInfo().version,
      };
      if (typeof opts.list === 'string') {
        if (operands.length > 0)
          throw new CliError('--list takes its targets from the file: name no other target.', { exitCode: EXIT.usage });
        if (typeof opts.out !== 'string')
          throw new CliError('--list needs --out <dir> for the reports and the index.', { exitCode: EXIT.usage });
        const { targets, skipped } = await readTargetList(path.resolve(opts.list), {
          unpackTo: path.resolve(opts.out, 'server-json'),
        }).catch((error: Error) => {
          throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
        });
        for (const line of skipped) progress(`left out ${line}`);
        const entries = await runBatch({
          targets,
          out: path.resolve(opts.out),
          jobs: opts.jobs as number,
          force: opts.force === true,
          scan: (line, log) => {
            // A list line names its server's own doubles after the target; the run's --service come first.
            const entry = parseListEntry(line);
            const services = mergeServices(scanOptions.services, entry.services);
            return scanTarget({ ...scanOptions, services, words: [entry.target], progress: log });
          },
          progress,
        });
        process.stdout.write(formatIndex(entries, 'markdown'));
        const verdicts = new Set(entries.map((e) => e.verdict));
        process.exitCode =
          verdicts.has('could not scan') || verdicts.has('failed')
            ? EXIT.usage
            : verdicts.has('contradictions')
              ? EXIT.failure
              : verdicts.has('not verified')
                ? VERDICT_EXIT['not verified']
                : 0;
        return;
      }
      if (argv.length === 0 && before.length === 1 && (await isRegistryExport(before[0]!)))
        throw new CliError(
          `${before[0]} is an MCP Registry export (a list of servers): scan it with --list ${before[0]} --out <dir>.`,
          { exitCode: EXIT.usage },
        );
      if (
        opts.format === 'server-json' &&
        !(argv.length === 0 && before.length === 1 && (await isServerJson(before[0]!)))
      )
        throw new CliError(
          '--format server-json writes the verdict into the scanned server.json: give one server.json as the target.',
          { exitCode: EXIT.usage },
        );
      const report = await scanTarget({
        ...scanOptions,
        words: before,
        command: argv,
        progress,
      }).catch(async (error: unknown) => {
        if (!isCandorError(error)) throw error;
        const message = error.code === 'install_failed' ? error.message : `could not scan ${label}: ${error.message}`;
        // A failed scan still writes its report in JSON: the verdict, nothing exercised, and why.
        if (opts.format === 'json') {
          const failed = { target: label, ...failedVerdict(message), tools: [], candorVersion: packageInfo().version };
          process.stdout.write(`${JSON.stringify({ ...failed, date: new Date().toISOString() }, null, 2)}\n`);
        }
        if (typeof opts.badge === 'string') await writeBadge(opts.badge, 'could not scan');
        throw new CliError(message, { exitCode: EXIT.usage, cause: error });
      });
      if (typeof opts.badge === 'string') await writeBadge(opts.badge, report);
      process.stdout.write(
        opts.format === 'server-json' && report.serverJson
          ? serverJsonWithVerdict(await readFile(report.serverJson.file, 'utf8'), report)
          : formatScan(report, opts.format as ScanFormat),
      );
      process.exitCode = VERDICT_EXIT[report.verdict];
    },
  );
}
