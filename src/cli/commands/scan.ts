/**
 * `candor scan <package | file.json#name | -- command …> [--format …] [--workdir DIR]
 * [--allow-scripts] [--timeout MS]`: from a package name to a verdict in one command.
 * Exit 0 consistent, 1 contradictions, 2 could not scan.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CandorError } from '../../errors.js';
import { InstallError, installPackage } from '../../scan/install.js';
import { formatScan, SCAN_FORMATS, type ScanFormat } from '../../scan/report.js';
import { scanServer } from '../../scan/scan.js';
import type { ScanReport } from '../../scan/types.js';
import { generateWorkdir } from '../../scan/workdir.js';
import { commandEnv } from '../../targets/command-env.js';
import { parseTargets } from '../../targets/parse.js';
import { CliError, EXIT } from '../cli-error.js';
import { addEnvOptions } from '../env-options.js';
import { splitAtDashDash } from '../operands.js';
import { packageInfo } from '../package-root.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1.');
  return n;
}

/** npm's own settings for the registry and its certificate authorities, as npm itself reads them. */
async function npmSettings(): Promise<{ registry: string; cafile?: string }> {
  const get = async (key: string) =>
    (await promisify(execFile)('npm', ['config', 'get', key]).catch(() => ({ stdout: '' }))).stdout.trim();
  const [registry, cafile] = await Promise.all([get('registry'), get('cafile')]);
  return {
    registry: registry && registry !== 'undefined' ? registry : 'https://registry.npmjs.org/',
    ...(cafile && cafile !== 'null' && cafile !== 'undefined' ? { cafile } : {}),
  };
}

/** A target that is neither a config entry nor a URL is an npm package spec. */
function isPackageSpec(operand: string): boolean {
  return /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(@[^\s/]+)?$/i.test(operand) && !operand.endsWith('.json');
}

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
    .description(
      'Install (npm) or start a stdio server in the sandbox and report whether its tools do what their hints say.',
    )
    .argument(
      '[target...]',
      'an npm package spec (name, name@1.2.3), a config entry (file.json#name), or -- a stdio command',
    )
    .addOption(new Option('--format <format>', 'report format').choices([...SCAN_FORMATS]).default('pretty'))
    .option('--workdir <dir>', 'copied into the sandbox as the working directory (default: a generated one)')
    .option('--skip <glob>', 'leave out tools matching (repeatable)', (v: string, prev: string[]) => [...prev, v], [])
    .option('--allow-scripts', "run the package's install scripts (off: npm install --ignore-scripts)")
    .option('--timeout <ms>', 'per-call timeout; a hung call kills the sandbox', positiveInt, 10_000)
    .addHelpText(
      'after',
      [
        '',
        'An npm package is installed into a throwaway folder under ~/.cache/candor/scan, by npm',
        "running in the sandbox with the network only to npm's registry. Nothing in the current",
        'folder or HOME changes. The server then starts once in the sandbox (no network): the',
        'scan at the door, lint, observe and the pin hashes all read that start.',
        '',
        'Exit 0 consistent, 1 contradictions (an error-level lint or observe finding),',
        "2 could not scan (npm's message for a package it cannot install, the server's stderr",
        'when it does not start).',
        '',
        'Examples:',
        '  candor scan @modelcontextprotocol/server-memory',
        '  candor scan @modelcontextprotocol/server-filesystem@2025.8.21 --format html > card.html',
        '  candor scan .cursor/mcp.json#notes --format sarif > scan.sarif',
        '  candor scan -- node ./dist/server.js',
      ].join('\n'),
    );
  return addEnvOptions(command).action(async (operands: string[], opts: Record<string, unknown>, cmd: Command) => {
    const startedAt = Date.now();
    const progress = (line: string) => process.stderr.write(`candor scan: ${line}\n`);
    const { before, command: argv } = splitAtDashDash(cmd, operands);
    /** Throwaway folders (the install, the generated workdir), removed however the scan ends. */
    const cleanup: string[] = [];
    try {
      const extra = await commandEnv({
        pairs: (opts.env as string[] | undefined) ?? [],
        files: (opts.envFile as string[] | undefined) ?? [],
        inherit: {},
      }).catch((error: Error) => {
        throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
      });
      let run: { target: string; command: string; args: string[]; env?: Record<string, string>; cwd?: string };
      let pkg: ScanReport['package'];
      if (argv.length === 0 && before.length === 1 && isPackageSpec(before[0]!)) {
        const settings = await npmSettings();
        try {
          const installed = await installPackage({
            spec: before[0]!,
            cacheDir: path.join(homedir(), '.cache', 'candor'),
            ...settings,
            allowScripts: opts.allowScripts === true,
            progress,
          });
          pkg = {
            name: installed.name,
            version: installed.version,
            ...(installed.integrity ? { integrity: installed.integrity } : {}),
          };
          progress(`installed ${installed.name}@${installed.version}`);
          run = { target: before[0]!, command: installed.command, args: installed.args };
          cleanup.push(installed.prefix);
        } catch (error) {
          if (error instanceof InstallError)
            throw new CliError(`could not install ${before[0]}:\n${error.message}`, { exitCode: EXIT.usage });
          throw error;
        }
      } else {
        const targets = await parseTargets({ targets: before, command: argv }).catch((error: Error) => {
          throw new CliError(error.message, { exitCode: EXIT.usage, cause: error });
        });
        const target = targets[0];
        if (targets.length !== 1 || target?.kind !== 'stdio') {
          throw new CliError(
            'candor scan takes one target: an npm package, a config entry with a command, or -- a stdio command.',
            {
              exitCode: EXIT.usage,
            },
          );
        }
        run = {
          target: target.label,
          command: target.command,
          args: target.args,
          ...(target.env ? { env: target.env } : {}),
          ...(target.cwd ? { cwd: target.cwd } : {}),
        };
      }
      const env = { ...(run.env ?? {}), ...extra };
      const workdir = typeof opts.workdir === 'string' ? path.resolve(opts.workdir) : await generateWorkdir();
      if (typeof opts.workdir !== 'string') cleanup.push(workdir);
      const report = await scanServer({
        target: run.target,
        command: run.command,
        args: run.args,
        ...(Object.keys(env).length > 0 ? { env } : {}),
        workdir,
        ...(pkg ? { package: pkg } : {}),
        timeoutMs: opts.timeout as number,
        skip: opts.skip as string[],
        candorVersion: packageInfo().version,
        startedAt,
        progress,
      }).catch((error: unknown) => {
        if (error instanceof CandorError && error.code.startsWith('observe_'))
          throw new CliError(`could not scan ${run.target}: ${error.message}`, { exitCode: EXIT.usage, cause: error });
        throw error;
      });
      process.stdout.write(formatScan(report, opts.format as ScanFormat));
      process.exitCode = report.verdict === 'contradictions' ? EXIT.failure : report.observe.failure ? EXIT.usage : 0;
    } finally {
      await Promise.all(cleanup.map((dir) => rm(dir, { recursive: true, force: true })));
    }
  });
}
