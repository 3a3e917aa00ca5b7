/**
 * The verdict rules over what the HTTPS API and page doubles saw: a read-only tool that
 * sent a write request (or submitted a form), and a closed-world tool that reached a
 * remote API at all. Findings have the observe verdicts' shape (lint's `Finding` plus
 * the evidence lines), so they print, export and gate like the others. A request is
 * evidence whatever the call answered afterwards: once sent, the write reached the API.
 */
import type { Finding } from '../lint/types.js';
import type { ResolvedHints } from '../tool/types.js';
import type { WitnessChange } from './doubles/types.js';

/** The request rules, in the lint rule shape (the observe rule list takes them in). */
export const REQUEST_RULES = [
  {
    id: 'observe/read-only-sent-write',
    severity: 'error',
    summary:
      'A tool marked readOnlyHint: true sent a request that writes (PUT, PATCH, DELETE, a POST that is not a read, a GraphQL mutation) to an API, or submitted a form with POST.',
    explanation:
      'A remote service changes only through requests, so the request is the write. Safe methods (GET, HEAD, OPTIONS, TRACE) are reads, and so are the common read-by-POST shapes: a GraphQL query (parsed, not pattern-matched), a search, query or list endpoint whose body names no change. A POST candor cannot place either way (a search path whose body names a change, a persisted GraphQL query) is reported at warning level: doubt lowers a finding, it never raises one.',
  },
  {
    id: 'observe/closed-world-requested',
    severity: 'error',
    summary: 'A tool marked openWorldHint: false sent a request to a remote API host.',
    explanation:
      'openWorldHint: false says the tool touches only its own closed set of things. Inside the sandbox the API’s names lead to candor’s HTTPS API double, so the connection itself stays on loopback; the request names the remote host it was meant for.',
  },
] as const;

type RequestRuleId = (typeof REQUEST_RULES)[number]['id'];

/** A finding with what was seen (the observe verdicts' shape). */
export type RequestFinding = Finding & { evidence: string[] };

type RequestChange = Extract<WitnessChange, { kind: 'request' }>;
type PageChange = Extract<WitnessChange, { kind: 'page' }>;

function finding(
  id: RequestRuleId,
  tool: string,
  message: string,
  evidence: string[],
  severity?: Finding['severity'],
): RequestFinding {
  const rule = REQUEST_RULES.find((r) => r.id === id)!;
  return { ruleId: id, severity: severity ?? rule.severity, tool, message, evidence };
}

/** One evidence line for a request: what was sent where, and what it means. */
export function describeRequest(change: RequestChange): string {
  const meaning =
    change.operation !== undefined
      ? `a GraphQL ${change.operation}`
      : change.read === 'ambiguous'
        ? 'neither clearly a read nor a write'
        : change.read
          ? 'a read'
          : 'a write';
  return `sent ${change.method} https://${change.host}${change.path} (${meaning})`;
}

function describeSubmit(change: PageChange): string {
  return `submitted a form: ${change.method} ${change.path} on candor's local page`;
}

/** Loopback names and addresses: a request there stays on this machine. */
function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host;
  return bare === 'localhost' || bare.endsWith('.localhost') || bare.startsWith('127.') || bare === '::1';
}

const unique = (lines: string[]) => [...new Set(lines)];

/**
 * Judge one tool's requests (every change its calls' witnesses reported, answered or failed)
 * against its hints.
 *
 * @example
 * ```ts
 * judgeRequests('get_project', hints, [{ kind: 'request', method: 'PATCH', host: 'api.example.com', path: '/p/1', read: false }]);
 * // [{ ruleId: 'observe/read-only-sent-write', severity: 'error', … }]
 * ```
 */
export function judgeRequests(tool: string, hints: ResolvedHints, changes: readonly WitnessChange[]): RequestFinding[] {
  const findings: RequestFinding[] = [];
  const requests = changes.filter((c): c is RequestChange => c.kind === 'request');
  const submits = changes.filter(
    (c): c is PageChange => c.kind === 'page' && c.action === 'submit' && !['GET', 'HEAD'].includes(c.method),
  );
  if (hints.readOnlyHint) {
    const writes = unique([
      ...requests.filter((r) => r.read === false).map(describeRequest),
      ...submits.map(describeSubmit),
    ]);
    const doubtful = unique(requests.filter((r) => r.read === 'ambiguous').map(describeRequest));
    if (writes.length > 0) {
      findings.push(
        finding(
          'observe/read-only-sent-write',
          tool,
          `${tool} claims readOnlyHint: true, but it sent ${writes.length === 1 ? 'a request that writes' : 'requests that write'}.`,
          [...writes, ...doubtful],
        ),
      );
    } else if (doubtful.length > 0) {
      findings.push(
        finding(
          'observe/read-only-sent-write',
          tool,
          `${tool} claims readOnlyHint: true, and it sent ${doubtful.length === 1 ? 'a POST' : 'POSTs'} candor cannot place as a read; it may write.`,
          doubtful,
          'warning',
        ),
      );
    }
  }
  if (!hints.openWorldHint) {
    const remote = unique(requests.filter((r) => !isLoopbackHost(r.host)).map(describeRequest));
    if (remote.length > 0) {
      findings.push(
        finding(
          'observe/closed-world-requested',
          tool,
          `${tool} claims openWorldHint: false, but it sent requests to a remote API.`,
          remote,
        ),
      );
    }
  }
  return findings;
}
