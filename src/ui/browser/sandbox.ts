/**
 * The sandbox proxy (MCP Apps 2026-01-26, "Sandbox proxy"): served from a
 * second loopback origin that only the console may frame. It waits for the
 * View's HTML, puts it in an inner iframe `sandbox="allow-scripts"` (an opaque
 * origin: no cookies, no storage, no access to this page) through `srcdoc`,
 * with a CSP built from the resource's `_meta.ui.csp`, and relays JSON-RPC
 * between the console and the View. It decides nothing: the console's Node
 * side is the authority on every call.
 */
import { type DeclaredCsp, viewCsp, viewDocument } from '../shared/view-csp.js';

const consoleOrigin = document.querySelector<HTMLMetaElement>('meta[name="candor-console-origin"]')?.content ?? '';
let inner: HTMLIFrameElement | undefined;

function load(params: { html?: unknown; csp?: DeclaredCsp }): void {
  if (typeof params.html !== 'string' || inner) return;
  const { policy } = viewCsp(params.csp);
  inner = document.createElement('iframe');
  // Only scripts: never allow-same-origin (the View would share this origin), forms, popups or top navigation.
  inner.setAttribute('sandbox', 'allow-scripts');
  inner.setAttribute('title', 'MCP App View');
  inner.srcdoc = viewDocument(params.html, policy);
  document.body.append(inner);
}

window.addEventListener('message', (event: MessageEvent) => {
  const message = event.data as { jsonrpc?: string; method?: string; params?: Record<string, unknown> } | null;
  if (event.source === window.parent && event.origin === consoleOrigin) {
    if (message?.method === 'ui/notifications/sandbox-resource-ready') {
      load((message.params ?? {}) as { html?: unknown; csp?: DeclaredCsp });
      return;
    }
    // The View has an opaque origin, so no target origin can name it; the source check below guards the way back.
    inner?.contentWindow?.postMessage(message, '*');
    return;
  }
  if (inner && event.source === inner.contentWindow && message?.jsonrpc === '2.0') {
    window.parent.postMessage(message, consoleOrigin);
  }
});

if (consoleOrigin && window.parent !== window) {
  window.parent.postMessage(
    { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} },
    consoleOrigin,
  );
}
