/**
 * `candor scripts list|add|remove`: the stored scripts a code-mode gateway lists as
 * tools, kept in the scripts file of a gateway config (`"scripts"`, else
 * `candor.scripts.json` next to the config) or the file `--file` names. A running
 * gateway follows the file, so what is added here is listed at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { isCandorError } from '../../errors.js';
import { openScripts } from '../../gateway/code-mode/code-mode-settings.js';
import type { ScriptStore } from '../../gateway/code-mode/script-store.js';
import { GATEWAY_CONFIG_FILES, loadGatewayConfig } from '../../gateway/config.js';
import { CliError, EXIT } from '../cli-error.js';

interface ScriptsCliOptions {
  config?: string;
  file?: string;
}

/** The store the options name: `--file`, else the gateway config's. */
async function storeOf(opts: ScriptsCliOptions): Promise<ScriptStore> {
  try {
    if (opts.file !== undefined) return await openScripts({ scripts: opts.file });
    const config = opts.config ?? GATEWAY_CONFIG_FILES.find((file) => existsSync(file));
    if (config === undefined)
      throw new CliError(
        `No scripts file: pass --file FILE or --config FILE (or run where ${GATEWAY_CONFIG_FILES.join(' or ')} is).`,
        { exitCode: EXIT.usage },
      );
    const options = await loadGatewayConfig(config);
    return await openScripts({ ...options, configFile: path.resolve(config) });
  } catch (error) {
    if (isCandorError(error) && !(error instanceof CliError)) throw new CliError(error.message);
    throw error;
  }
}

/**
 * Register `candor scripts`.
 *
 * @example
 * ```ts
 * registerScripts(new Command('candor'));
 * ```
 */
export function registerScripts(program: Command): Command {
  const scripts = program
    .command('scripts')
    .description(
      "The stored scripts a code-mode gateway lists as tools (hints derived from the tools they call): list, add or remove them in the gateway's scripts file.",
    );
  const where = (command: Command) =>
    command
      .option('--config <file>', `the gateway config (default: ${GATEWAY_CONFIG_FILES.join(' or ')} in this folder)`)
      .option(
        '--file <file>',
        'the scripts file itself (default: the config\'s "scripts", else candor.scripts.json next to it)',
      );
  where(scripts.command('list').description('List the stored scripts: name, who saved it, description.')).action(
    async (opts: ScriptsCliOptions) => {
      const store = await storeOf(opts);
      const all = store.list();
      if (all.length === 0) process.stdout.write(`No stored scripts in ${store.file}.\n`);
      for (const script of all)
        process.stdout.write(`${script.name} (saved by ${script.savedBy}): ${script.description.split('\n')[0]}\n`);
    },
  );
  where(
    scripts
      .command('add')
      .description('Store a script under a name not taken (it replaces nothing).')
      .argument('<name>', 'its tool name: letters, digits, "_" and "-", starting with a letter')
      .requiredOption('--description <text>', 'what it does and returns, for whoever calls it')
      .option('--code <js>', 'the script (the body of an async function)')
      .option('--from <file>', 'read the script from this file'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  candor scripts add stale_issues --description "Open issues untouched since January." --from stale.js',
        '  candor scripts list --config candor.gateway.json',
      ].join('\n'),
    )
    .action(async (name: string, opts: ScriptsCliOptions & { description: string; code?: string; from?: string }) => {
      if ((opts.code === undefined) === (opts.from === undefined))
        throw new CliError('Pass the script with --code or --from (one of them).', { exitCode: EXIT.usage });
      const code = opts.code ?? readFileSync(opts.from!, 'utf8');
      const store = await storeOf(opts);
      try {
        await store.save({ name, description: opts.description, code }, 'person');
      } catch (error) {
        if (isCandorError(error)) throw new CliError(error.message);
        throw error;
      }
      process.stdout.write(`Stored ${name} in ${store.file}.\n`);
    });
  where(scripts.command('remove').description('Remove a stored script.').argument('<name>', 'its name')).action(
    async (name: string, opts: ScriptsCliOptions) => {
      const store = await storeOf(opts);
      if (!(await store.remove(name)))
        throw new CliError(`No stored script named ${JSON.stringify(name)} in ${store.file}.`);
      process.stdout.write(`Removed ${name} from ${store.file}.\n`);
    },
  );
  return scripts;
}
