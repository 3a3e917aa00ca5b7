/**
 * The inside half of a network allow-list (issue 21; the outside half is
 * `bridge.ts`): `node forwarder.js '<rules JSON>' <command> [args…]` listens on each
 * rule's loopback address and port in the sandbox's network namespace, pipes every
 * connection to the rule's Unix socket, then runs the server with the same stdio
 * and exits as it exits. Runs inside bubblewrap; imports only Node's own modules.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';

interface Rule {
  host: string;
  port: number;
  socket: string;
}

async function main(): Promise<void> {
  const [rulesJson, command, ...args] = process.argv.slice(2);
  if (rulesJson === undefined || command === undefined) {
    process.stderr.write('candor sandbox forwarder: usage: forwarder.js <rules JSON> <command> [args…]\n');
    process.exit(2);
  }
  const rules = JSON.parse(rulesJson) as Rule[];
  for (const rule of rules) {
    const server = net.createServer((inside) => {
      const outside = net.connect(rule.socket);
      const end = () => {
        inside.destroy();
        outside.destroy();
      };
      inside.on('error', end).on('close', end);
      outside.on('error', end).on('close', end);
      inside.pipe(outside).pipe(inside);
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(rule.port, rule.host, resolve));
    server.unref();
  }
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
