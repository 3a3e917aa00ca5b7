/**
 * The network allow-list, enforced. A sandbox with `network: [...]` has a
 * network namespace of its own with only loopback, so nothing leaves it on its own.
 * For each allowed destination the gateway listens on a Unix socket in a folder
 * bound into the sandbox (outside), and the forwarder (inside, `forwarding.ts`)
 * listens on the destination's port of a loopback address and pipes each
 * connection through that socket. Host names resolve to those loopback addresses
 * through the sandbox's own /etc/hosts; any other address or port is unreachable.
 */
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Destination } from './destination.js';
import type { ForwardRule } from './forwarding.js';

/** The outside half of an allow-list. */
export interface Bridge {
  /** For the forwarder: listen here, pipe to that socket. */
  rules: ForwardRule[];
  /** A generated /etc/hosts for the sandbox. */
  hostsFile: string;
  close(): Promise<void>;
}

/**
 * Listen on one Unix socket per destination in `dir` and write the sandbox's /etc/hosts there.
 *
 * @example
 * ```ts
 * const bridge = await openBridge([{ host: 'api.github.com', port: 443 }], '/tmp/candor-sandbox-x/net');
 * ```
 */
export async function openBridge(destinations: readonly Destination[], dir: string): Promise<Bridge> {
  const names = new Map<string, string>();
  const servers: net.Server[] = [];
  const open = new Set<net.Socket>();
  const rules: ForwardRule[] = [];
  for (const [index, destination] of destinations.entries()) {
    let inside = destination.host;
    if (inside === 'localhost') inside = '127.0.0.1';
    else if (net.isIP(inside) === 0) {
      if (!names.has(inside)) names.set(inside, `127.231.${Math.floor(names.size / 250)}.${(names.size % 250) + 1}`);
      inside = names.get(inside)!;
    }
    // `localhost:8080` and `127.0.0.1:8080` are one listener inside.
    if (rules.some((rule) => rule.host === inside && rule.port === destination.port)) continue;
    const socket = path.join(dir, `${index}.sock`);
    const server = net.createServer((downstream) => {
      const upstream = net.connect(destination.target ?? { host: destination.host, port: destination.port });
      open.add(downstream).add(upstream);
      const end = () => {
        downstream.destroy();
        upstream.destroy();
        open.delete(downstream);
        open.delete(upstream);
      };
      downstream.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      downstream.pipe(upstream).pipe(downstream);
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
    servers.push(server);
    rules.push({ host: inside, port: destination.port, socket });
  }
  const hostsFile = path.join(dir, 'hosts');
  writeFileSync(
    hostsFile,
    [
      '127.0.0.1 localhost',
      '::1 localhost ip6-localhost ip6-loopback',
      ...[...names].map(([name, address]) => `${address} ${name}`),
      '',
    ].join('\n'),
  );
  return {
    rules,
    hostsFile,
    close: async () => {
      for (const socket of open) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
