/**
 * Serve examples/everything over Streamable HTTP.
 * Usage: node --import tsx examples/everything/main.ts [--port 3000] [--host 127.0.0.1]
 * Prints the endpoint URL on stdout once listening (scripts wait for it).
 */
import { createEverythingServer } from './server.js';

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1]! : fallback;
}

const server = createEverythingServer();
const listener = await server.listen({ port: Number(option('port', '3000')), host: option('host', '127.0.0.1') });
process.stdout.write(`${listener.url}\n`);
