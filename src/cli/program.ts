/**
 * The `candor` program: every command registered on one commander program. Kept apart
 * from main.ts (which runs on import) so the CLI reference can be generated from it.
 */
import { Command } from 'commander';
import { registerCall } from './commands/call.js';
import { registerInspect } from './commands/inspect.js';
import { registerServe } from './commands/serve.js';
import { packageInfo } from './package-root.js';

/** Commands whose modules load heavy dependencies at import; registered only when they may run. */
const OTHER_COMMANDS: ReadonlyArray<readonly [string, () => Promise<(program: Command) => unknown>]> = [
  ['audit', async () => (await import('./commands/audit.js')).registerAudit],
  ['auth', async () => (await import('./commands/auth.js')).registerAuth],
  ['gateway', async () => (await import('./commands/gateway.js')).registerGateway],
  ['lint', async () => (await import('./commands/lint.js')).registerLint],
  ['observe', async () => (await import('./commands/observe.js')).registerObserve],
  ['pin', async () => (await import('./commands/pin.js')).registerPin],
  ['scan', async () => (await import('./commands/scan.js')).registerScan],
  ['scripts', async () => (await import('./commands/scripts.js')).registerScripts],
  ['setup', async () => (await import('./commands/setup.js')).registerSetup],
  ['verify', async () => (await import('./commands/verify.js')).registerVerify],
  ['ui', async () => (await import('./commands/ui.js')).registerUi],
];
const OWN_COMMANDS = new Set(['serve', 'inspect', 'call']);

/** The first word that is not an option: the subcommand, if any. */
function commandWord(argv: readonly string[]): string | undefined {
  return argv.slice(2).find((word) => !word.startsWith('-'));
}

/**
 * The commander program with every command registered. When the command line
 * names serve, inspect or call, the others are left out: `candor serve --stdio`
 * starts as fast as a stdio server should, since clients spawn it.
 *
 * @example
 * ```ts
 * const argv = ['node', 'candor', 'inspect', 'http://127.0.0.1:3000/mcp'];
 * await (await buildProgram(argv)).parseAsync(argv);
 * ```
 */
export async function buildProgram(argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command('candor')
    .description(
      'MCP tools whose annotations tell the truth: serve tools, check any MCP server (inspect, call, lint, observe, scan, pin, verify), sign in to remote ones (auth), put a gateway in front of them (gateway, setup, audit, scripts) and look at them in a web console (ui).',
    )
    .version(packageInfo().version, '-v, --version')
    .option('--debug', 'print stack traces on errors')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  registerServe(program);
  registerInspect(program);
  registerCall(program);
  const word = commandWord(argv);
  if (word === undefined || !OWN_COMMANDS.has(word)) {
    for (const [, load] of OTHER_COMMANDS) (await load())(program);
  }
  return program;
}
