/**
 * The result guards against the corpus of bench/result-guards-corpus-data.ts; not a test.
 *
 * - Secrets: every fake in every placement of a result (13) and every encoding in a text
 *   block (20). Caught when no 8-character piece of the secret (nor its hex, nor a piece of
 *   its base64) is left in what the client would get. Goal ≥ 97%.
 * - Injection: every case as a text block, and some in other placements. Caught when the
 *   result is labelled (annotated). Goal ≥ 80%.
 * - Ordinary: the ordinary results and documented example keys. Changed or labelled counts
 *   against. Goal ≤ 2%.
 *
 *   node --import tsx bench/result-guards-corpus.ts
 */
import { guardResult } from '../src/gateway/results/inspect.js';
import type { CallToolResult } from '../src/tool/types.js';
import { EXAMPLE_KEYS, fakes, INJECTIONS, ORDINARY } from './result-guards-corpus-data.js';

const tool = { name: 'web__fetch', openWorld: true, trusted: false };
const text = (t: string) => ({ type: 'text' as const, text: t });
const b64 = (s: string) => Buffer.from(s).toString('base64');

const PLACEMENTS: Record<string, (t: string) => CallToolResult> = {
  text: (t) => ({ content: [text(t)] }),
  'split-blocks': (t) => ({
    content: [text(t.slice(0, Math.floor(t.length / 2))), text(t.slice(Math.floor(t.length / 2)))],
  }),
  'resource-text': (t) =>
    ({ content: [{ type: 'resource', resource: { uri: 'file:///a', text: t } }] }) as CallToolResult,
  'resource-blob': (t) =>
    ({ content: [{ type: 'resource', resource: { uri: 'file:///a', blob: b64(t) } }] }) as CallToolResult,
  'link-uri': (t) =>
    ({
      content: [
        { type: 'resource_link', uri: `https://x.example/?q=${encodeURIComponent(t).replace(/%3A/g, ':')}`, name: 'n' },
      ],
    }) as CallToolResult,
  'link-description': (t) =>
    ({ content: [{ type: 'resource_link', uri: 'https://x.example/', name: 'n', description: t }] }) as CallToolResult,
  'result-meta': (t) => ({ content: [text('ok')], _meta: { debug: t } }),
  'block-meta': (t) => ({ content: [{ ...text('ok'), _meta: { debug: t } }] }) as CallToolResult,
  'structured-value': (t) => ({ content: [text('ok')], structuredContent: { config: { value: t } } }),
  'structured-key': (t) => ({ content: [text('ok')], structuredContent: { [t]: true } }),
  'deep-nesting': (t) => {
    let v: unknown = { t };
    for (let i = 0; i < 50; i++) v = { n: v };
    return { content: [text('ok')], structuredContent: v as Record<string, unknown> };
  },
  'error-result': (t) => ({ content: [text(`Error: request failed: ${t}`)], isError: true }),
  'json-in-text': (t) => ({ content: [text(JSON.stringify({ output: t }))] }),
};

const ENCODINGS: Record<string, (t: string) => string> = {
  plain: (t) => t,
  'json-u-escape': (t) => `\\u00${t.charCodeAt(0).toString(16)}${t.slice(1)}`,
  'json-u-escape-all': (t) => [...t].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'escaped-slash': (t) => t.replace(/\//g, '\\/'),
  'double-encoded': (t) => JSON.stringify(JSON.stringify({ value: t })),
  'base64-env': (t) => b64(`NODE_ENV=production\nSECRET=${t}\n`),
  hex: (t) => Buffer.from(`token=${t}`).toString('hex'),
  'zero-width': (t) => `${t.slice(0, 6)}\u200B${t.slice(6)}`,
  'soft-hyphen': (t) => `${t.slice(0, 6)}\u00AD${t.slice(6)}`,
  'word-joiner': (t) => `${t.slice(0, 6)}\u2060${t.slice(6)}`,
  wrapped: (t) => (t.length > 40 ? `${t.slice(0, 24)}\n${t.slice(24)}` : t),
  fullwidth: (t) =>
    [...t].map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join(''),
  quoted: (t) => `"${t}"`,
  'markdown-code': (t) => `\`\`\`\n${t}\n\`\`\``,
  'yaml-value': (t) => `config:\n  value: "${t}"`,
  'xml-attribute': (t) => `<setting value="${t}"/>`,
  'log-line': (t) => `2026-12-06T12:00:00Z ERROR auth failed with ${t} (retrying)`,
  'html-attr': (t) => `<input type="hidden" value="${t}">`,
  'crlf-lines': (t) => `first line\r\n${t}\r\nlast line`,
  'url-query': (t) => `https://api.example.com/v1?access=${t}`,
};

/** Whether a piece of the secret is left (invisible characters and fullwidth letters read back first). */
function leaked(result: unknown, secret: string): boolean {
  const json = JSON.stringify(result)
    .replace(/\\u00ad|\\u200b|\\u2060/gi, '')
    .replace(/[\u00AD\u200B\u2060]/g, '')
    .normalize('NFKC');
  const pieces = [Buffer.from(secret).toString('hex').slice(8, 40)];
  for (let at = 0; at + 8 <= secret.length; at += 4) pieces.push(secret.slice(at, at + 8));
  if (json.includes(pieces[0]!)) return true;
  const decoded = json.replace(/[A-Za-z0-9+/]{40,}={0,2}/g, (run) => {
    const s = Buffer.from(run, 'base64').toString('utf8');
    return /^[\x20-\x7e\n]*$/.test(s) ? s : run;
  });
  return pieces.slice(1).some((p) => json.includes(p) || decoded.includes(p) || json.includes(p.replace(/\//g, '\\/')));
}

const labelled = (r: CallToolResult) => JSON.stringify(r._meta ?? {}).includes('dev.candor/result-guard');

async function main() {
  const all = fakes();
  let total = 0;
  let caught = 0;
  const missedBy = new Map<string, number>();
  const miss = (key: string) => missedBy.set(key, (missedBy.get(key) ?? 0) + 1);
  for (const fake of all) {
    for (const [placement, make] of Object.entries(PLACEMENTS)) {
      total++;
      const { result } = await guardResult(make(fake.text), tool);
      if (!leaked(result, fake.secret)) caught++;
      else miss(`placement ${placement} / ${fake.format}`);
    }
    for (const [encoding, encode] of Object.entries(ENCODINGS)) {
      if (encoding === 'plain') continue;
      total++;
      const { result } = await guardResult({ content: [text(`value: ${encode(fake.text)}`)] }, tool);
      if (!leaked(result, fake.secret)) caught++;
      else miss(`encoding ${encoding} / ${fake.format}`);
    }
  }
  const formats = new Set(all.map((f) => f.format)).size;
  console.log(
    `secrets: ${all.length} fakes of ${formats} formats × (${Object.keys(PLACEMENTS).length} placements + ${Object.keys(ENCODINGS).length - 1} encodings) = ${total} cases; caught ${caught} (${((caught / total) * 100).toFixed(1)}%), goal ≥ 97%`,
  );
  const byKind = new Map<string, number>();
  for (const [key, n] of missedBy) byKind.set(key.split(' / ')[0]!, (byKind.get(key.split(' / ')[0]!) ?? 0) + n);
  console.log(
    `  missed by placement/encoding: ${JSON.stringify(Object.fromEntries([...byKind].sort((a, b) => b[1] - a[1])))}`,
  );
  const byFormat = new Map<string, number>();
  for (const [key, n] of missedBy) byFormat.set(key.split(' / ')[1]!, (byFormat.get(key.split(' / ')[1]!) ?? 0) + n);
  console.log(`  missed by format: ${JSON.stringify(Object.fromEntries([...byFormat].sort((a, b) => b[1] - a[1])))}`);

  let injCaught = 0;
  let injTotal = 0;
  const injMissed: string[] = [];
  for (const [i, phrase] of INJECTIONS.entries()) {
    for (const placement of i % 4 === 0 ? ['text', 'resource-text', 'result-meta', 'split-blocks'] : ['text']) {
      injTotal++;
      const { result } = await guardResult(PLACEMENTS[placement]!(phrase), tool);
      if (labelled(result) && JSON.stringify(result._meta).includes('untrusted')) injCaught++;
      else injMissed.push(`${placement}: ${phrase.slice(0, 60).replace(/\s+/g, ' ')}`);
    }
  }
  console.log(
    `injection: ${INJECTIONS.length} cases, ${injTotal} with placements; caught ${injCaught} (${((injCaught / injTotal) * 100).toFixed(1)}%), goal ≥ 80%`,
  );
  for (const m of injMissed) console.log(`  missed: ${m}`);

  let changed = 0;
  const ordinary = [...ORDINARY, ...EXAMPLE_KEYS];
  for (const t of ordinary) {
    const original = { content: [text(t)] };
    const { result } = await guardResult(original, tool);
    if (result !== original || labelled(result)) {
      changed++;
      console.log(
        `  changed or labelled: ${t.slice(0, 70).replace(/\s+/g, ' ')} → ${JSON.stringify(result).slice(0, 160)}`,
      );
    }
  }
  console.log(
    `ordinary: ${ordinary.length} results; changed or labelled ${changed} (${((changed / ordinary.length) * 100).toFixed(1)}%), goal ≤ 2%`,
  );
}

await main();
