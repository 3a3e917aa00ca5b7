/**
 * The forwarder process: `node forwarder.js '<rules JSON>' <command> [args…]`
 * listens on each rule's loopback address and port in the sandbox's network namespace
 * (`forwarding.ts`), then runs the server with the same stdio and exits as it exits.
 * Used for servers that are not Node programs; a Node server gets the listeners in its
 * own process instead (`forwarder-hook.ts`), one process start less. Runs inside
 * bubblewrap; imports only Node's own modules.
 */
import { spawn } from 'node:child_process';
import { type ForwardRule, listenForwards } from './forwarding.js';

async function main(): Promise<void> {
  const [rulesJson, command, ...args] = process.argv.slice(2);
  if (rulesJson === undefined || command === undefined) {
    process.stderr.write('candor sandbox forwarder: usage: forwarder.js <rules JSON> <command> [args…]\n');
    process.exit(2);
  }
  await listenForwards(JSON.parse(rulesJson) as ForwardRule[]);
  const child = spawn(command, args, { stdio: 'inherit' });
  child.on('error', (error) => {
    process.stderr.write(`candor sandbox: cannot start ${command}: ${error.message}\n`);
    process.exit(127);
  });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15)));
}

main().catch((error: Error) => {
  process.stderr.write(`candor sandbox forwarder: ${error.message}\n`);
  process.exit(1);
});
