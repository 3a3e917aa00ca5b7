import type { Server } from 'node:http';

/** Tells the benchmark runner which port the server listens on. */
export function announce(server: Server): void {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  process.stdout.write(`listening ${address.port}\n`);
}
