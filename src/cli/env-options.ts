/**
 * `--env KEY=VALUE` and `--env-file <file>` for the commands that start a
 * server with `-- <command>` (inspect, call, lint, pin, verify;).
 * The command gets the caller's environment with these laid over it; config
 * file entries keep their own `env`, as clients run them (targets/command-env.ts).
 */
import type { Command } from 'commander';
import type { TargetInput } from '../targets/parse.js';

/** The options as commander parses them. */
export interface EnvOptions {
  env?: string[];
  envFile?: string[];
}

/**
 * Add `--env` and `--env-file` (both repeatable) to a command.
 *
 * @example
 * ```ts
 * addEnvOptions(program.command('inspect'));
 * addEnvOptions(program.command('observe'), { sandboxed: true });
 * ```
 */
export function addEnvOptions(command: Command, options: { sandboxed?: boolean } = {}): Command {
  // A sandboxed server (candor observe) gets only these variables, not the caller's environment.
  const reach = options.sandboxed
    ? 'only these and --env-file reach the sandboxed server, with PATH and LANG'
    : 'it also gets your environment';
  return command
    .option(
      '--env <KEY=VALUE>',
      `set a variable for the server started with -- <command> (repeatable; ${reach})`,
      collect,
      [],
    )
    .option(
      '--env-file <file>',
      'read variables for the -- <command> server from a .env file (repeatable)',
      collect,
      [],
    );
}

/** The `commandEnv` part of a {@link TargetInput} from parsed options (empty when none were given). */
export function commandEnvOf(options: EnvOptions): Pick<TargetInput, 'commandEnv'> {
  const pairs = options.env ?? [];
  const files = options.envFile ?? [];
  return pairs.length + files.length === 0 ? {} : { commandEnv: { pairs, files } };
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
