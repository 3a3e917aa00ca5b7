/**
 * Rendering an MCP App View (SEP-1865) with the ext-apps `AppBridge`, created
 * WITHOUT an MCP client: nothing a View sends is forwarded to a server by the
 * bridge. Each request the View may make has a handler here, and the only one
 * that reaches a server, `tools/call`, goes to the Node side, which decides it
 * (view-gate.ts). Links open only for http(s) after the person confirms;
 * `ui/message` and model-context updates are shown in the console and logged,
 * never sent to a model.
 */

import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { CandorError } from '../../errors.js';
import type { CallOutcome } from '../../host/types.js';
import type { ViewResource } from '../server/view-gate.js';
import { postJson } from './api.js';
import { askHost } from './confirm-dialog.js';
import { h, json } from './dom.js';

/**
 * postMessage to and from the sandbox proxy only: the target origin is the
 * sandbox origin, and messages count only when they come from that frame and origin.
 */
class ProxyTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #frame: HTMLIFrameElement;
  readonly #origin: string;
  readonly #listener = (event: MessageEvent) => {
    if (event.source !== this.#frame.contentWindow || event.origin !== this.#origin) return;
    const data = event.data as { jsonrpc?: unknown } | null;
    if (data?.jsonrpc === '2.0') this.onmessage?.(data as JSONRPCMessage);
  };

  constructor(frame: HTMLIFrameElement, origin: string) {
    this.#frame = frame;
    this.#origin = origin;
  }

  async start(): Promise<void> {
    window.addEventListener('message', this.#listener);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.#frame.contentWindow?.postMessage(message, this.#origin);
  }

  async close(): Promise<void> {
    window.removeEventListener('message', this.#listener);
    this.onclose?.();
  }
}

const theme = (): 'light' | 'dark' => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');

/** Open the View of `tool` for a call's input and outcome, in `container`. */
export async function openView(options: {
  container: HTMLElement;
  dialogs: HTMLElement;
  sandboxOrigin: string;
  tool: string;
  args: Record<string, unknown>;
  outcome: CallOutcome;
}): Promise<void> {
  const resource = await postJson<ViewResource>('/api/views', { tool: options.tool });
  const notes = h('ul', { class: 'view-notes' });
  const note = (text: string) => notes.prepend(h('li', {}, text));
  const frame = h('iframe', {
    'data-view': options.tool,
    title: `View of ${options.tool}`,
    src: `${options.sandboxOrigin}/sandbox.html`,
    class: resource.prefersBorder === false ? 'borderless' : undefined,
  });
  const close = h('button', { type: 'button', class: 'close' }, 'Close');
  const card = h(
    'section',
    { class: 'view-card' },
    h('header', {}, h('strong', {}, `View ${resource.uri}`), ` · ${options.tool} · bound to ${resource.server}`, close),
    frame,
    h('details', {}, h('summary', {}, 'CSP'), h('pre', {}, resource.policy)),
    h('div', { class: 'view-side' }, h('span', {}, 'From the View (shown here, never sent to a model):'), notes),
  );
  options.container.prepend(card);

  const report = (kind: string, detail: unknown) => {
    note(`${kind}: ${JSON.stringify(detail).slice(0, 500)}`);
    void postJson('/api/views/event', { viewId: resource.viewId, kind, detail }).catch(() => undefined);
  };

  const bridge = new AppBridge(
    null,
    { name: 'candor ui', version: '0.1.0' },
    { openLinks: {}, serverTools: {}, logging: {}, updateModelContext: { text: {} }, message: { text: {} } },
    { hostContext: { theme: theme(), platform: 'web', displayMode: 'inline', availableDisplayModes: ['inline'] } },
  );
  bridge.oncalltool = async (params) => {
    try {
      const outcome = await postJson<CallOutcome>('/api/views/call', {
        viewId: resource.viewId,
        name: params.name,
        args: params.arguments ?? {},
      });
      if (outcome.result && (outcome.status === 'ok' || outcome.status === 'error')) return outcome.result as never;
      throw new CandorError(outcome.message ?? `the call ended ${outcome.status}`, { code: 'console_request_failed' });
    } catch (error) {
      note(`tools/call ${params.name} refused: ${(error as Error).message}`);
      throw error;
    }
  };
  bridge.onopenlink = async ({ url }) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      report('open-link refused', { url });
      return { isError: true };
    }
    const yes = await askHost(
      options.dialogs,
      'open-link',
      'Open a link?',
      `A View of ${resource.server} wants to open ${parsed.href}`,
    );
    report(yes ? 'open-link allowed' : 'open-link denied', { url: parsed.href });
    if (yes) window.open(parsed.href, '_blank', 'noopener,noreferrer');
    return yes ? {} : { isError: true };
  };
  bridge.onmessage = async (params) => {
    report('ui/message', params);
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    report('model context', params);
    return {};
  };
  bridge.onloggingmessage = (params) => note(`log ${params.level}: ${json(params.data)}`);
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && height > 0) frame.style.height = `${Math.min(Math.ceil(height), 2000)}px`;
  };
  bridge.onrequestdisplaymode = async () => ({ mode: 'inline' });
  bridge.onsandboxready = () => {
    const params: { html: string; csp?: NonNullable<ViewResource['csp']> } = { html: resource.html };
    if (resource.csp) params.csp = resource.csp;
    void bridge.sendSandboxResourceReady(params as never);
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: options.args });
    if (options.outcome.result) void bridge.sendToolResult(options.outcome.result as never);
  };
  const scheme = matchMedia('(prefers-color-scheme: dark)');
  const onScheme = () => void bridge.sendHostContextChange({ theme: theme() });
  scheme.addEventListener('change', onScheme);
  close.addEventListener('click', () => {
    scheme.removeEventListener('change', onScheme);
    void bridge.teardownResource({}).catch(() => undefined);
    void bridge.close();
    void postJson('/api/views/close', { viewId: resource.viewId }).catch(() => undefined);
    card.remove();
  });
  await bridge.connect(new ProxyTransport(frame, options.sandboxOrigin));
}
