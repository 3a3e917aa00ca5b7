/**
 * A loopback TCP proxy that can stop forwarding: the network between
 * the instances and Redis dropping. While cut, nothing moves either way on the
 * connections it carries (bytes are held, as they wait in a partition TCP has
 * not given up on yet) and new connections are accepted but get nothing
 * through; when mended, what waited flows on, in order.
 */

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Stop forwarding (connections stay open). */
  cut(): void;
  /** Forward again. */
  mend(): void;
  close(): Promise<void>;
}

/** Start a proxy on a free loopback port that forwards to `target` on loopback. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let cut = false;
  const sockets = new Set<Socket>();
  /** Bytes held while cut, in the order they came, with where they go. */
  let held: Array<[Socket, Buffer]> = [];
  const forward = (to: Socket) => (chunk: Buffer) => {
    if (cut) held.push([to, chunk]);
    else to.write(chunk);
  };
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    const pair = [client, upstream] as const;
    for (const socket of pair) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        for (const other of pair) other.destroy();
      });
    }
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    cut() {
      cut = true;
    },
    mend() {
      cut = false;
      const waiting = held;
      held = [];
      for (const [to, chunk] of waiting) if (!to.destroyed) to.write(chunk);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
