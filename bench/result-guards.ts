/**
 * The gateway's result guards, measured; not a test.
 *
 * 1. False positives: secrets and injection findings over ordinary results — source
 *    files and README/markdown files from node_modules, package.json documents, and
 *    chunks of 40 lines of the logs of this machine's real servers and tools
 *    (/var/log: postgresql, dpkg, apt). Goal: at most 1 false redaction per 1,000.
 * 2. Recall: results carrying credentials in the formats providers issue, generated
 *    fresh each run (env files, JSON configs, error messages, curl lines, PEM keys of
 *    three algorithms, connection strings, JWTs). A result counts as caught when no
 *    8-character piece of any secret in it is left after redaction.
 * 3. Cost: p50 of the guard on a 4 KB and a 1 MB ordinary result (the step the
 *    gateway adds per call), goal ≤ 50 µs and ≤ 1 ms, and the process's CPU time per
 *    call (on a shared machine the wall-clock p50 also holds time spent waiting for a core).
 *
 *   node --import tsx bench/result-guards.ts
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { findInjection } from '../src/gateway/results/injection.js';
import { guardResult } from '../src/gateway/results/inspect.js';
import { findSecrets, redact } from '../src/gateway/results/secrets.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAX = 16 * 1024;

/** Files under node_modules with these endings, in a stable order, every `step`-th one. */
function sample(test: (name: string) => boolean, count: number): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 6) return;
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      let stat: ReturnType<typeof statSync>;
      try {
        stat = statSync(full);
      } catch {
        continue;
      }
      if (stat.isDirectory()) walk(full, depth + 1);
      else if (test(name) && stat.size > 200) found.push(full);
    }
  };
  walk(join(repo, 'node_modules'), 0);
  const step = Math.max(1, Math.floor(found.length / count));
  return found.filter((_, i) => i % step === 0).slice(0, count);
}

function ordinary(): Array<{ source: string; text: string }> {
  const out: Array<{ source: string; text: string }> = [];
  for (const file of sample((n) => /\.(js|mjs|cjs|ts|md)$/.test(n) && !n.endsWith('.d.ts'), 700))
    out.push({ source: 'source', text: readFileSync(file, 'utf8').slice(0, MAX) });
  for (const file of sample((n) => n === 'package.json', 300))
    out.push({ source: 'json', text: readFileSync(file, 'utf8').slice(0, MAX) });
  for (const log of [
    '/var/log/postgresql/postgresql-15-main.log',
    '/var/log/dpkg.log',
    '/var/log/apt/history.log',
    '/var/log/apt/term.log',
  ]) {
    if (!existsSync(log)) continue;
    const lines = readFileSync(log, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i += 40) out.push({ source: 'log', text: lines.slice(i, i + 40).join('\n') });
  }
  return out;
}

const alnum = (n: number) =>
  [...randomBytes(n)].map((b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[b % 62]).join('');
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const pem = (type: 'rsa' | 'ec' | 'ed25519') =>
  generateKeyPairSync(
    type as 'rsa',
    {
      modulusLength: 2048,
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    } as never,
  ).privateKey as unknown as string;

/** One realistic credential result: its text and the secret values in it. */
function credentialResult(i: number): { text: string; secrets: string[] } {
  const github = `ghp_${alnum(36)}`;
  const pat = `github_pat_${alnum(22)}_${alnum(59)}`;
  const slack = `xoxb-${1e11 + i}-${2e12 + i}-${alnum(24)}`;
  const stripe = `sk_live_${alnum(24)}`;
  // A secret access key: 40 characters of base64, "+" and "/" included.
  const awsSecret = randomBytes(30).toString('base64');
  const pass = alnum(18);
  const jwt = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ sub: `u${i}`, iat: 1764000000 + i })}.${randomBytes(64).toString('base64url')}`;
  const hex = randomBytes(20).toString('hex');
  const npm = `npm_${alnum(36)}`;
  const sendgrid = `SG.${alnum(22)}.${alnum(43)}`;
  const cases = [
    { text: `# .env\nNODE_ENV=production\nGITHUB_TOKEN=${github}\nPORT=8080\n`, secrets: [github] },
    { text: JSON.stringify({ name: 'deploy', auth: { token: pat }, retries: 3 }, null, 2), secrets: [pat] },
    { text: `Error: Slack API call failed for token ${slack}: channel_not_found`, secrets: [slack] },
    { text: `stripe.api_key = "${stripe}"\nstripe.currency = "eur"`, secrets: [stripe] },
    { text: `[default]\naws_secret_access_key = ${awsSecret}\nregion = us-east-1`, secrets: [awsSecret] },
    { text: `DATABASE_URL=mysql://app:${pass}@10.0.0.4:3306/shop`, secrets: [pass] },
    { text: `curl -H "Authorization: Bearer ${jwt}" https://api.example.com/v1/me`, secrets: [jwt] },
    { text: `{"client_secret": "${hex}", "client_id": "web"}`, secrets: [hex] },
    { text: `//registry.npmjs.org/:_authToken=${npm}`, secrets: [npm] },
    { text: `SENDGRID_API_KEY=${sendgrid}`, secrets: [sendgrid] },
  ];
  if (i % 20 === 0) {
    const key = pem((['rsa', 'ec', 'ed25519'] as const)[(i / 20) % 3]!);
    return { text: `$ cat ~/.ssh/deploy\n${key}`, secrets: [key.split('\n')[1]!] };
  }
  return cases[i % cases.length]!;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const plain = ordinary();
  let secretFp = 0;
  let injectionFp = 0;
  const bySource: Record<string, { n: number; fp: number }> = {};
  const rules: Record<string, number> = {};
  for (const { source, text } of plain) {
    const s = await findSecrets(text);
    const inj = findInjection(text);
    const entry = bySource[source] ?? { n: 0, fp: 0 };
    bySource[source] = entry;
    entry.n++;
    if (s.length > 0) {
      secretFp++;
      if (process.env.SHOW)
        console.log(
          'FP',
          s.map((f) => `${f.rule}: ${text.slice(Math.max(0, f.range![0] - 40), f.range![1] + 10)}`),
        );
      entry.fp++;
      for (const f of s) rules[f.rule] = (rules[f.rule] ?? 0) + 1;
    }
    if (inj.length > 0) {
      injectionFp++;
      if (process.env.SHOW)
        console.log(
          'INJ',
          inj.map((f) => f.rule),
          text.slice(0, 80).replace(/\n/g, ' '),
        );
    }
  }
  console.log(
    `ordinary results: ${plain.length} (${Object.entries(bySource)
      .map(([k, v]) => `${k} ${v.n}`)
      .join(', ')})`,
  );
  console.log(
    `  with a secret finding: ${secretFp} (${((secretFp / plain.length) * 1000).toFixed(1)} per 1,000) by rule ${JSON.stringify(rules)}`,
  );
  console.log(`  with an injection finding: ${injectionFp}`);

  let caught = 0;
  const missed: string[] = [];
  const N = 400;
  for (let i = 0; i < N; i++) {
    const { text, secrets } = credentialResult(i);
    const found = await findSecrets(text);
    const shown = redact(text, found);
    // Caught when no 8-character piece of any secret is left in what the model would see.
    const covered = secrets.every((value) => {
      for (let at = 0; at + 8 <= value.length; at += 4) if (shown.includes(value.slice(at, at + 8))) return false;
      return true;
    });
    if (covered) caught++;
    else if (missed.length < 12) missed.push(text.slice(0, 60).replace(/\n/g, '\\n'));
  }
  console.log(`credential results: ${N}, every secret redacted in ${caught} (${((caught / N) * 100).toFixed(1)}%)`);
  for (const m of missed) console.log(`  missed: ${m}`);

  // The two defaults: an open-world tool (secrets redacted, injection annotated) and a
  // closed-world tool of a trusted server (secret redaction only).
  const openWorld = { name: 'web__fetch', openWorld: true, trusted: false };
  const closedWorld = { name: 'files__read', openWorld: false, trusted: true };
  // Results cut from the ordinary corpus (source, JSON and logs, in turn), each parsed from a
  // JSON message as the gateway gets it (V8 keeps an ASCII string parsed from JSON in one
  // byte per character); the p50 is over calls on all of them.
  const corpus = plain.map((p) => p.text).join('\n');
  if (process.env.DUMP) writeFileSync(process.env.DUMP, corpus);
  for (const [label, size, count, runs] of [
    ['4 KB', 4 * 1024, 200, 10],
    ['1 MB', 1024 * 1024, 4, 25],
  ] as const) {
    const step = Math.max(1, Math.floor((corpus.length - size) / count));
    const results = Array.from(
      { length: count },
      (_, i) =>
        JSON.parse(JSON.stringify({ content: [{ type: 'text', text: corpus.slice(i * step, i * step + size) }] })) as {
          content: Array<{ type: 'text'; text: string }>;
        },
    );
    for (const [name, tool] of [
      ['open-world tool', openWorld],
      ['closed-world tool, trusted server', closedWorld],
    ] as const) {
      // Warm: a gateway runs for hours, so the first calls (while V8 still compiles) are not counted.
      for (let r = 0; r < 5; r++) for (const result of results) await guardResult(result, tool);
      const times: number[] = [];
      const cpu: number[] = [];
      for (let r = 0; r < runs; r++)
        for (const result of results) {
          const t = performance.now();
          const c = process.cpuUsage();
          await guardResult(result, tool);
          const used = process.cpuUsage(c);
          times.push(performance.now() - t);
          cpu.push(used.user + used.system);
        }
      // The process's CPU time per call (its GC and compiler threads too): on a loaded
      // machine the wall-clock p50 also counts time spent waiting for a core.
      console.log(
        `guard on a ${label} result, ${name}: p50 ${(p50(times) * 1000).toFixed(0)} µs, CPU p50 ${p50(cpu).toFixed(0)} µs (${count} results × ${runs} runs)`,
      );
    }
  }
  console.log(
    `machine: ${cpus()[0]?.model ?? '?'} × ${cpus().length}, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

await main();
