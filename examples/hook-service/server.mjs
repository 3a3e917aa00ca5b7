#!/usr/bin/env node
/**
 * A complete hook service for `candor gateway` (no dependencies; Node >= 20).
 *
 *   node examples/hook-service/server.mjs            # listens on http://127.0.0.1:8787
 *
 * POST /before (the gateway's `beforeCall`):
 *   - deny a call whose arguments name a credential file (~/.ssh, id_rsa, .aws/credentials,
 *     /etc/shadow, .env);
 *   - deny a destructive call (destructiveHint true) by anyone not in HOOK_WRITERS
 *     (comma-separated subjects; unset = everyone may);
 *   - allow the rest.
 * POST /after (the gateway's `afterCall`):
 *   - replace a result whose text is longer than HOOK_MAX_RESULT_CHARS (default 20000)
 *     with its beginning and a note (and its structured content with every string cut
 *     to that length, so it still fits the tool's output schema);
 *   - allow the rest.
 *
 * Settings: HOOK_PORT (default 8787; 0 = any free port), HOOK_WRITERS, HOOK_MAX_RESULT_CHARS.
 * It listens on loopback only and reads at most 8 MB of a request.
 */
import http from 'node:http';

const PORT = Number(process.env.HOOK_PORT ?? 8787);
const WRITERS = process.env.HOOK_WRITERS?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const MAX_RESULT_CHARS = Number(process.env.HOOK_MAX_RESULT_CHARS ?? 20000);
const MAX_BODY = 8 * 1024 * 1024;
const CREDENTIAL_FILES = [
  /(^|[\\/])\.ssh([\\/]|$)/,
  /id_(rsa|ed25519|ecdsa)\b/,
  /\.aws[\\/]credentials/,
  /\/etc\/shadow/,
  /(^|[\\/])\.env$/,
];

/** The answer to a beforeCall document. */
function before(doc) {
  for (const pattern of CREDENTIAL_FILES) {
    for (const value of Object.values(doc.arguments ?? {})) {
      if (typeof value === 'string' && pattern.test(value))
        return { decision: 'deny', reason: `the arguments name a credential file (${value}).` };
    }
  }
  if (doc.hints?.destructiveHint && WRITERS && !WRITERS.includes(doc.person ?? ''))
    return {
      decision: 'deny',
      reason: `${doc.person ?? 'an anonymous caller'} may not make destructive calls (${doc.tool}).`,
    };
  return { decision: 'allow' };
}

/** A JSON value with every string cut to `max` characters. */
function cut(value, max) {
  if (typeof value === 'string') return value.slice(0, max);
  if (Array.isArray(value)) return value.map((v) => cut(v, max));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v, max)]));
  return value;
}

/** The answer to an afterCall document. */
function after(doc) {
  const blocks = doc.result?.content ?? [];
  const length = blocks.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 0), 0);
  if (length <= MAX_RESULT_CHARS) return { decision: 'allow' };
  const text = blocks
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .slice(0, MAX_RESULT_CHARS);
  return {
    decision: 'replace',
    result: {
      content: [
        { type: 'text', text },
        { type: 'text', text: `[hook service: result cut to ${MAX_RESULT_CHARS} of ${length} characters]` },
      ],
      isError: doc.result?.isError ?? false,
      // A tool with an output schema must still return content that fits it.
      ...(doc.result?.structuredContent !== undefined
        ? { structuredContent: cut(doc.result.structuredContent, MAX_RESULT_CHARS) }
        : {}),
    },
  };
}

const server = http.createServer((req, res) => {
  const answer = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const route = req.url === '/before' ? before : req.url === '/after' ? after : undefined;
  if (req.method !== 'POST' || !route) return answer(404, { error: 'POST /before or /after' });
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY) {
      answer(413, { error: 'request too large' });
      req.destroy();
    } else chunks.push(chunk);
  });
  req.on('end', () => {
    if (res.headersSent) return;
    let doc;
    try {
      doc = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(400, { error: 'expected a JSON document' });
    }
    answer(200, route(doc));
  });
});

server.listen(PORT, '127.0.0.1', () => {
  console.log(`hook service: http://127.0.0.1:${server.address().port}`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
