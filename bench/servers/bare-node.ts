/**
 * The limit: a bare node:http JSON-RPC endpoint that answers tools/call for an
 * echo tool with no MCP machinery at all (parse, build result, stringify).
 */
import { createServer } from 'node:http';
import { announce } from './announce.js';

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: msg.id,
      result: { content: [{ type: 'text', text: String(msg.params?.arguments?.text ?? '') }] },
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => announce(server));
