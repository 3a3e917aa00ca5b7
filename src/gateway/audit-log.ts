/**
 * The gateway's audit log: one JSON line per call. Arguments are never
 * written, only a hash of their canonical JSON and the names of their keys,
 * so secrets in arguments never reach the log.
 */
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { canonicalJson } from '../host/pins/canonical-json.js';

/** Where the token an upstream call carries comes from. */
export type CredentialSource = 'exchanged' | 'per-person' | 'shared' | 'none';

/** How one upstream call was credentialed (never the token itself). */
export interface UpstreamCredential {
  /**
   * `exchanged` (RFC 8693, for the person), `per-person` (the person's own sign-in to the upstream), `shared` (one sign-in or header for
   * everyone), `none` (no credential: stdio, or an open server).
   */
  source: CredentialSource;
  /** The upstream as its tokens name it (audience or resource URI), when it takes tokens. */
  audience?: string;
}

/** One audited call. */
export interface AuditEntry {
  time: string;
  /** The downstream session (2025 era over HTTP), when there is one. */
  session?: string;
  /** Who called (the token's subject, else its client id), when the gateway requires tokens. */
  principal?: string;
  /** How the call reached the upstream: the token's source and the upstream's audience. */
  credentials?: UpstreamCredential;
  tool: string;
  server?: string;
  /** allow / ask / deny as the policy said it, or `error` when the call could not be attempted. */
  decision: 'allow' | 'ask' | 'deny' | 'error';
  /** Who decided: `preset:<name>`, `rule`, `rules:call_unconfirmed` (Cedar), `pin`, `person`, `no-elicitation`, `taint`, `gateway`, `quota:<name>`. */
  decidedBy: string;
  /** What the person answered, when one was asked. */
  answer?: 'allow-once' | 'allow-always' | 'deny' | 'decline' | 'cancel';
  pin: string;
  durationMs: number;
  /** ok / error (tool reported isError) / denied / timeout / cancelled / unknown / failed. */
  outcome: string;
  args: { sha256: string; keys: string[] };
  /** What the result guard found in the result and did about it (kind, rule, action; never the text found). */
  results?: Array<{ kind: 'secret' | 'injection'; rule: string; action: 'annotate' | 'redact' | 'block' | 'off' }>;
  /** The earlier results (tool names) whose untrusted content made this call ask or be refused. */
  taint?: string[];
  /** What the call hooks came to: allow, deny, replace, or failed-open / failed-closed. */
  hooks?: { beforeCall?: string; afterCall?: string };
  /** A code-mode script run: each tool call it made, in order, as an entry of its own. */
  calls?: AuditEntry[];
  /** A code-mode script that did not run to its end: which limit or failure stopped it. */
  failure?: string;
}

/**
 * A sink for audit entries: a file path (appended), `-` (stderr) or a function.
 *
 * @example
 * ```ts
 * const write = auditSink('gateway-audit.jsonl');
 * write(entry);
 * ```
 */
export function auditSink(target: string | ((entry: AuditEntry) => void)): (entry: AuditEntry) => void {
  if (typeof target === 'function') return target;
  if (target === '-') return (entry) => process.stderr.write(`${JSON.stringify(entry)}\n`);
  return (entry) => {
    try {
      // Synchronous append: entries stay whole and in order even when calls finish together.
      appendFileSync(target, `${JSON.stringify(entry)}\n`, 'utf8');
    } catch (error) {
      process.emitWarning(`candor gateway: cannot write the audit log ${target}: ${(error as Error).message}`);
    }
  };
}

/**
 * The audit view of arguments: a hash and the key names, never the values.
 *
 * @example
 * ```ts
 * auditArgs({ path: 'a.txt', token: 's3cret' }); // { sha256: '…', keys: ['path', 'token'] }
 * ```
 */
export function auditArgs(args: unknown): AuditEntry['args'] {
  const keys = typeof args === 'object' && args !== null && !Array.isArray(args) ? Object.keys(args).sort() : [];
  const sha256 = createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('hex');
  return { sha256, keys };
}
