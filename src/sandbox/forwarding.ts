/**
 * The listening half of a network allow-list, inside the sandbox's network namespace
 * (the gateway's half is `bridge.ts`): a listener on each allowed loopback
 * address and port that pipes every connection to the rule's Unix socket. Run by the
 * forwarder process (`forwarder.ts`) or inside a Node server's own process
 * (`forwarder-hook.ts`). Imports only Node's own modules.
 */
import net from 'node:net';

/** Listen on `host:port` inside; pipe each connection to `socket` (bound in from the gateway). */
export interface ForwardRule {
  host: string;
  port: number;
  socket: string;
}

/** The environment variable that hands the rules to `forwarder-hook.ts` (removed once read). */
export const FORWARD_RULES_ENV = 'CANDOR_SANDBOX_FORWARD';

/**
 * Listen on every rule's address; resolves once all listen. The listeners do not keep
 * the process alive.
 *
 * @example
 * ```ts
 * await listenForwards([{ host: '127.231.0.1', port: 443, socket: '/tmp/candor-sandbox-x/net/0.sock' }]);
 * ```
 */
export async function listenForwards(rules: readonly ForwardRule[]): Promise<void> {
  await Promise.all(
    rules.map(async (rule) => {
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
    }),
  );
}
