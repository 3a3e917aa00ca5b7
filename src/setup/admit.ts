/**
 * Letting reviewed servers in: the servers a person already used are not strangers, so
 * setup (and `candor gateway add`) asks once, or takes `--yes`, to pin and trust each
 * server that passed the scan at the door. Pinned, its tools are offered; trusted, its
 * read-only tools run without a question, while tools that change or delete things
 * still ask (the gateway's default policy). A server kept out stays quarantined, with
 * the command that lets it in.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { readLockfile } from '../host/pins/lockfile.js';
import { pinReviewed } from '../host/pins/pin-review.js';
import { isRecord } from '../util/is-record.js';
import type { ServerReview } from './review.js';

/** Where the gateway config and its lockfile are, and how to decide. */
export interface AdmitOptions {
  gatewayConfig: string;
  lockFile: string;
  /** Pin and trust every server the scan passes without asking. */
  yes?: boolean;
  /** Ask a person (absent: no one to ask). */
  ask?: (question: string) => Promise<boolean>;
}

/** What was let in. */
export interface Admission {
  pinned: string[];
  trusted: string[];
  /** Servers left quarantined (not pinned), with why. */
  waiting: Array<{ server: string; why: string }>;
}

/** Mark servers `"trust": "trusted"` in the gateway config, keeping the rest of its text. */
export async function trustServers(configFile: string, servers: readonly string[]): Promise<void> {
  if (servers.length === 0) return;
  let text = await readFile(configFile, 'utf8');
  for (const server of servers)
    text = applyEdits(
      text,
      modify(text, ['servers', server, 'trust'], 'trusted', { formattingOptions: { insertSpaces: true, tabSize: 2 } }),
    );
  await writeFile(configFile, text, { mode: 0o600 });
}

/**
 * Ask about (or, with `yes`, take) each reviewed server the scan passed; pin and trust those taken.
 *
 * @example
 * ```ts
 * const { pinned, trusted } = await admitReviewed(reviews, { gatewayConfig, lockFile, yes: true });
 * ```
 */
export async function admitReviewed(reviews: readonly ServerReview[], options: AdmitOptions): Promise<Admission> {
  const lock = await readLockfile(options.lockFile);
  const parsed: unknown = parse(await readFile(options.gatewayConfig, 'utf8'));
  const entries = isRecord(parsed) && isRecord(parsed.servers) ? parsed.servers : {};
  const trustedNow = (server: string) => isRecord(entries[server]) && entries[server].trust === 'trusted';
  const chosen: ServerReview[] = [];
  const waiting: Admission['waiting'] = [];
  for (const review of reviews) {
    if (!review.tools) {
      waiting.push({ server: review.server, why: 'it did not start' });
      continue;
    }
    if (review.blocked.length > 0) {
      waiting.push({ server: review.server, why: 'the scan at the door keeps tools of it out' });
      continue;
    }
    if (lock?.servers[review.server] && trustedNow(review.server)) continue;
    const question = `Pin and trust ${review.server} (${review.tools.length} tools; the scan at the door passes)? Its read-only tools will run without asking; changes still ask.`;
    if (options.yes || (await options.ask?.(question))) chosen.push(review);
    else waiting.push({ server: review.server, why: options.ask ? 'you said no' : 'no one to ask: run with --yes' });
  }
  const admission: Admission = { pinned: [], trusted: [], waiting: waiting.filter((w) => !lock?.servers[w.server]) };
  if (chosen.length === 0) return admission;
  const { reviews: pinned } = await pinReviewed(
    options.lockFile,
    chosen.map((r) => ({ server: r.server, tools: r.tools! })),
  );
  admission.pinned = pinned.filter((r) => r.pinned).map((r) => r.server);
  for (const r of pinned)
    if (!r.pinned) admission.waiting.push({ server: r.server, why: 'the scan at the door refused it' });
  await trustServers(
    options.gatewayConfig,
    admission.pinned.filter((server) => !trustedNow(server)),
  );
  admission.trusted = admission.pinned;
  return admission;
}

/**
 * The lines that tell a person what the gateway will do with each server now.
 *
 * @example
 * ```ts
 * admissionLines(admission, { gatewayConfig, lockFile }); // ['Pinned and trusted: memory. …']
 * ```
 */
export function admissionLines(admission: Admission, files: { gatewayConfig: string; lockFile: string }): string[] {
  const lines: string[] = [];
  if (admission.pinned.length > 0) {
    lines.push(
      `Pinned and trusted: ${admission.pinned.join(', ')}. Their read-only tools run without a question; tools that change or delete something ask you first, through your client (MCP elicitation). A client that cannot ask gets a refusal naming the rule to add.`,
    );
  }
  for (const { server, why } of admission.waiting) {
    lines.push(
      `Quarantined until pinned (${why}): ${server}: candor pin --config ${files.gatewayConfig} --server ${server} --lock ${files.lockFile}`,
    );
  }
  return lines;
}
