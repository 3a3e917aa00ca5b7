/**
 * The Content-Security-Policy of an MCP App View (MCP Apps 2026-01-26, "UI
 * resource CSP"): the spec's restrictive default, widened only by the domains
 * the resource declares in `_meta.ui.csp`. A declared entry that is not a plain
 * http(s)/ws(s) origin (optionally with a `*.` wildcard label) is dropped, never
 * passed through: a `;` or a quoted keyword would otherwise add directives.
 * Shared by the sandbox proxy (bundled into the browser) and the Node side.
 */

/** `_meta.ui.csp` as a resource declares it. */
export interface DeclaredCsp {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

/** The policy text and the entries that were refused. */
export interface ViewCsp {
  policy: string;
  dropped: string[];
}

const ORIGIN = /^(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?$/;

function domains(value: unknown, dropped: string[]): string[] {
  if (!Array.isArray(value)) return [];
  const kept: string[] = [];
  for (const entry of value) {
    if (typeof entry === 'string' && ORIGIN.test(entry)) kept.push(entry);
    else dropped.push(String(entry));
  }
  return kept;
}

/**
 * Build a View's CSP from its declared `_meta.ui.csp` (absent: the spec's defaults).
 *
 * @example
 * ```ts
 * viewCsp(undefined).policy; // "default-src 'none'; script-src 'self' 'unsafe-inline'; … connect-src 'none'; …"
 * viewCsp({ connectDomains: ['https://api.example.com'] }).policy.includes('connect-src https://api.example.com'); // true
 * ```
 */
export function viewCsp(declared: DeclaredCsp | undefined): ViewCsp {
  const dropped: string[] = [];
  const csp = declared !== null && typeof declared === 'object' ? declared : {};
  const connect = domains(csp.connectDomains, dropped);
  const resource = domains(csp.resourceDomains, dropped);
  const frame = domains(csp.frameDomains, dropped);
  const base = domains(csp.baseUriDomains, dropped);
  const list = (values: string[], fallback: string) => (values.length > 0 ? values.join(' ') : fallback);
  const withResources = (start: string) => [start, ...resource].join(' ');
  const policy = [
    "default-src 'none'",
    `script-src ${withResources("'self' 'unsafe-inline'")}`,
    `style-src ${withResources("'self' 'unsafe-inline'")}`,
    `img-src ${withResources("'self' data:")}`,
    `font-src ${withResources("'self'")}`,
    `media-src ${withResources("'self' data:")}`,
    `connect-src ${list(connect, "'none'")}`,
    `frame-src ${list(frame, "'none'")}`,
    `base-uri ${list(base, "'none'")}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join('; ');
  return { policy, dropped };
}

/**
 * The View's document with its CSP: the meta element first (after any doctype, so the
 * View keeps standards mode), before any script of the View can run.
 *
 * @example
 * ```ts
 * viewDocument('<!doctype html><p>hi', "default-src 'none'"); // '<!doctype html><meta http-equiv="Content-Security-Policy" …><p>hi'
 * ```
 */
export function viewDocument(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, '&quot;')}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? `${doctype[0]}${meta}${html.slice(doctype[0].length)}` : `${meta}${html}`;
}
