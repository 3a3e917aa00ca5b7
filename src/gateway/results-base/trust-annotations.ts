/**
 * The tool-annotations interest group's experimental `trust-annotations` extension
 * on guarded results: `_meta["io.modelcontextprotocol/trust-annotations"] = { untrusted?,
 * sensitive?, evidenceRef? }`. Extensions are negotiated (SEP-2133): a client that did not
 * declare it in `capabilities.extensions` (2025 era: at initialize; 2026-07-28: in each
 * request's `_meta` client capabilities) gets nothing of it.
 *
 * Only `true` is ever claimed (an absent label is "no claim", never "false"), and labels
 * only add up: a label the upstream server itself put on the result is kept.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { ResultAction, ResultFindingKind } from './types.js';

/** The extension's identifier, which is also its `_meta` key on a result. */
export const TRUST_ANNOTATIONS = 'io.modelcontextprotocol/trust-annotations';

/** The `evidenceRef` type of the gateway's record (see {@link trustAnnotation}). */
export const EVIDENCE_TYPE = 'dev.candor/result-guard.v1';

/** A pointer to the evidence behind the labels: the digest of a small record kept out of band. */
export interface EvidenceRef {
  type: string;
  digest: string;
  canonicalization: string;
}

/** What the extension puts on a result. */
export interface TrustAnnotation {
  untrusted?: true;
  sensitive?: true;
  evidenceRef?: EvidenceRef;
}

/**
 * True when the client declared the extension in its capabilities.
 *
 * @example
 * ```ts
 * declaresTrustAnnotations({ extensions: { 'io.modelcontextprotocol/trust-annotations': {} } }); // true
 * ```
 */
export function declaresTrustAnnotations(capabilities: Readonly<Record<string, unknown>>): boolean {
  const extensions = capabilities.extensions;
  return (
    typeof extensions === 'object' &&
    extensions !== null &&
    typeof (extensions as Record<string, unknown>)[TRUST_ANNOTATIONS] === 'object' &&
    (extensions as Record<string, unknown>)[TRUST_ANNOTATIONS] !== null
  );
}

/** What the gateway knows about one guarded result. */
export interface LabelledCall {
  server: string;
  /** The tool's name as the audit log records it. */
  tool: string;
  /** The result is outside input: the tool reaches an open world, or its server is not trusted. */
  outsideInput: boolean;
  /** The findings as the audit log records them. */
  findings: ReadonlyArray<{ kind: ResultFindingKind; rule: string; action: ResultAction }>;
  /** The label the upstream server put on its result, if any. */
  upstream?: unknown;
}

/**
 * The labels for a result, or undefined when there is nothing to claim. `untrusted`:
 * outside input, or injected instructions were found; `sensitive`: a secret was found
 * (redacted or left in place). The `evidenceRef` digest is SHA-256 over the RFC 8785
 * (JCS) form of `{ server, tool, results }`, the same facts as the call's audit line,
 * so whoever holds the audit log can match a label to its line.
 *
 * @example
 * ```ts
 * trustAnnotation({ server: 'web', tool: 'web__fetch', outsideInput: true, findings: [] });
 * // { untrusted: true, evidenceRef: { type: 'dev.candor/result-guard.v1', digest: 'sha256:…', canonicalization: 'jcs/rfc8785' } }
 * ```
 */
export function trustAnnotation(call: LabelledCall): TrustAnnotation | undefined {
  const upstream = (typeof call.upstream === 'object' && call.upstream !== null ? call.upstream : {}) as Record<
    string,
    unknown
  >;
  const untrusted =
    call.outsideInput || upstream.untrusted === true || call.findings.some((f) => f.kind === 'injection');
  const sensitive = upstream.sensitive === true || call.findings.some((f) => f.kind === 'secret');
  if (!untrusted && !sensitive) return undefined;
  const record = { server: call.server, tool: call.tool, results: call.findings };
  const digest = createHash('sha256')
    .update(canonicalize(record) ?? '')
    .digest('hex');
  return {
    ...(untrusted ? { untrusted: true } : {}),
    ...(sensitive ? { sensitive: true } : {}),
    evidenceRef: { type: EVIDENCE_TYPE, digest: `sha256:${digest}`, canonicalization: 'jcs/rfc8785' },
  };
}
