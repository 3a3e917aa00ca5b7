/**
 * `run_command`: run a program inside the workspace. An argv array, no shell
 * (so `;`, `&&`, `$(…)` and globs mean nothing unless the operator enables
 * `script`), a time limit that kills the whole process group, capped output, a
 * working directory inside the root, and an environment without secrets.
 *
 * A command can do anything its user can, inside the root or not: the tool is
 * declared destructive and open-world, the worst case, because that is the truth.
 */
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { CallToolResult, ToolDefinition } from '../../../src/tool/types.js';
import { type RunResult, runProcess } from '../command/run-process.js';
import { scrubEnv } from '../command/scrub-env.js';
import { formatBytes } from '../text-files.js';
import { TAGS, type WorkspaceContext } from './context.js';

const base = {
  cwd: z.string().default('.').describe('Working directory, relative to the workspace root. Default: the root.'),
  timeoutMs: z.number().int().min(1).optional().describe('Time limit in milliseconds (capped by the server).'),
  stdin: z.string().optional().describe('Text written to the standard input.'),
};

const argvInput = z.object({
  argv: z
    .array(z.string())
    .min(1)
    .describe('The program and its arguments, e.g. ["npm", "test"] or ["git", "status"]. No shell is involved.'),
  ...base,
});

const shellInput = z.object({
  argv: z
    .array(z.string())
    .min(1)
    .optional()
    .describe('The program and its arguments (no shell). Pass argv or script.'),
  script: z.string().min(1).optional().describe('A shell script run by /bin/sh -c. Pass argv or script.'),
  ...base,
});

/**
 * Make the `run_command` tool.
 *
 * @example
 * ```ts
 * registry.add(runCommandTool(ws)); // argv only
 * ```
 */
export function runCommandTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox, limits, options } = ws;
  const allowShell = options.commandAllowShell === true;
  const description = `Run a program in the workspace and return its exit code and output (${limits.commandTimeoutMs / 1000} s limit, or ${limits.taskCommandTimeoutMs / 1000} s when run as a task; ${formatBytes(limits.maxCommandOutputBytes)} of output per stream). Pass argv as an array; ${allowShell ? 'or a script for /bin/sh -c' : 'there is no shell, so pipes, && and globs are not interpreted'}. Secrets are removed from the environment.`;
  return defineTool({
    name: 'run_command',
    title: 'Run Command',
    description,
    input: allowShell ? shellInput : argvInput,
    effect: 'destructive',
    world: 'open',
    idempotent: false,
    tags: [TAGS.shell],
    category: 'shell',
    // Long commands (builds, test suites) can run as MCP tasks: the client polls instead of holding the request.
    task: 'optional',
    // Our own limit reports first (with the output so far); the pipeline's is the backstop.
    timeoutMs: Math.max(limits.commandTimeoutMs, limits.taskCommandTimeoutMs) + 5000,
    handler: async (args, ctx): Promise<CallToolResult> => {
      const { argv, script } = args as { argv?: string[]; script?: string };
      if ((argv === undefined) === (script === undefined)) {
        throw new ToolError('Pass exactly one of argv (an array) or script (a string).');
      }
      const command = argv ?? ['/bin/sh', '-c', script!];
      if (command[0]!.trim() === '') throw new ToolError('argv[0] is empty; it must name the program to run.');
      const cwd = await sandbox.resolve(args.cwd, { expect: 'directory' });
      const limit = ctx.task === undefined ? limits.commandTimeoutMs : limits.taskCommandTimeoutMs;
      const timeoutMs = Math.min(args.timeoutMs ?? limit, limit);
      const { env } = scrubEnv(options.commandEnv ?? process.env, options.commandEnvAllow);
      let result: RunResult;
      try {
        result = await runProcess({
          argv: command,
          cwd: cwd.absolute,
          env,
          timeoutMs,
          maxOutputBytes: limits.maxCommandOutputBytes,
          stdin: args.stdin,
          signal: ctx.signal,
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          throw new ToolError(`Command not found: ${command[0]}. Is it installed and on the PATH?`, {
            code: 'not_found',
          });
        }
        if (code === 'EACCES') throw new ToolError(`${command[0]} is not executable (permission denied).`);
        throw new ToolError(`${command[0]} could not be started (${code ?? (error as Error).message}).`);
      }
      return toResult(command, cwd.relative, result, timeoutMs);
    },
  });
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function toResult(argv: string[], cwd: string, r: RunResult, timeoutMs: number): CallToolResult {
  const seconds = (r.durationMs / 1000).toFixed(1);
  const status = r.timedOut
    ? `killed after the ${timeoutMs} ms time limit`
    : r.cancelled
      ? 'cancelled'
      : r.exitCode !== null
        ? `exit code ${r.exitCode}`
        : `killed by ${r.signal}`;
  const parts = [`$ ${argv.map(quote).join(' ')}${cwd === '.' ? '' : `   (in ${cwd})`}`, `${status} (${seconds} s)`];
  const stream = (name: string, text: string, dropped: number) => {
    if (text === '' && dropped === 0) return;
    parts.push(`--- ${name} ---`, text.replace(/\n$/, ''));
    if (dropped > 0) parts.push(`[${formatBytes(dropped)} more ${name} not shown]`);
  };
  stream('stdout', r.stdout, r.droppedStdout);
  stream('stderr', r.stderr, r.droppedStderr);
  return {
    content: [{ type: 'text', text: parts.join('\n') }],
    structuredContent: {
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut: r.timedOut,
      stdout: r.stdout,
      stderr: r.stderr,
      truncated: r.droppedStdout + r.droppedStderr > 0,
    },
    isError: r.timedOut || r.cancelled || r.exitCode !== 0,
  };
}
