/**
 * An in-process gateway on a free loopback port, for wire tests: its URL and one
 * `close()` that stops the listener and then the gateway (and its upstreams).
 *
 * @example
 * ```ts
 * const gateway = await listenGateway({ servers, policy: 'yolo', logger: silentLogger });
 * open.push(() => gateway.close());
 * ```
 */
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';

export async function listenGateway(options: GatewayOptions): Promise<{ url: string; close(): Promise<void> }> {
  const gateway = await createGateway(options);
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  return {
    url: listener.url,
    close: async () => {
      await listener.close().catch(() => {});
      await gateway.close();
    },
  };
}
