#!/usr/bin/env node
/**
 * The `candor` command: serve, inspect and call MCP servers, lint their
 * annotations, pin and verify their tool definitions.
 *
 * Every failure is one clear line and a non-zero exit code; `--debug` adds the
 * stack trace.
 */
import { CommanderError } from 'commander';
import { avoidWasmInliningFault } from '../util/wasm-inlining.js';
import { exitQuietlyOnBrokenPipe } from './broken-pipe.js';
import { EXIT, reportError } from './cli-error.js';
import { buildProgram } from './program.js';

/**
 * The SDK's OAuth code explains itself on console.warn ("Could not refresh OAuth tokens;
 * falling back…"); candor says what happened in its own words, so those lines are shown
 * only with --debug.
 */
function quietSdkAuthNotes(): void {
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && /^\[mcp-sdk\] (OAuth|Could not refresh|.*SEP-2352|.*credential)/i.test(args[0]))
      return;
    warn(...args);
  };
}

async function main(argv: string[]): Promise<void> {
  // Before anything loads WebAssembly (cedar-wasm, the result guards' scanner, undici's parser).
  avoidWasmInliningFault();
  // Before the first write: help piped into `head -1` must not crash with EPIPE.
  exitQuietlyOnBrokenPipe({ stdout: process.stdout, stderr: process.stderr });
  const debug = argv.includes('--debug');
  if (!debug) quietSdkAuthNotes();
  try {
    await (await buildProgram(argv)).parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed the message (or the help/version text).
      const done =
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help';
      process.exitCode = done ? 0 : EXIT.usage;
      return;
    }
    process.exitCode = reportError(error, { debug, write: (text) => process.stderr.write(text) });
  }
}

await main(process.argv);
