/**
 * The MCP Apps host's authority: every View is bound to the server
 * whose tool rendered it, and every `tools/call` a View makes is decided here,
 * on the Node side, never in the browser:
 * - only tools of the View's own server, looked up by their name on that server;
 * - only tools whose `_meta.ui.visibility` includes "app" (absent = model and
 *   app). Our own check, on the raw wire value: the ext-apps helpers
 *   `isToolVisibility*` compare one-element arrays and are not used;
 * - a destructive call needs a person's click in the console's dialog (outside
 *   the iframe) even when the policy would let it run;
 * - then the host's own policy, pins and `callFromApp` check apply as for any call.
 */

import { randomUUID } from 'node:crypto';
import { CandorError } from '../../errors.js';
import { DEFAULT_SEPARATOR } from '../../host/catalog.js';
import type { Host } from '../../host/host-api.js';
import type { Policy } from '../../host/policy.js';
import type { CallOutcome, CatalogTool } from '../../host/types.js';
import { type DeclaredCsp, viewCsp } from '../shared/view-csp.js';
import { type ConfirmBroker, callScope } from './confirm-broker.js';
import type { SessionLog } from './session-log.js';

const MCP_APP_MIME = 'text/html;profile=mcp-app';

/** 2026-07-28 servers send log messages only when the request asks for a level (SEP-2575). */
export const LOG_META: Readonly<Record<string, unknown>> = Object.freeze({
  'io.modelcontextprotocol/logLevel': 'info',
});

/** A View the console opened, bound to its server. */
interface OpenView {
  id: string;
  server: string;
  tool: string;
  uri: string;
}

/** What the console needs to render a View. */
export interface ViewResource {
  viewId: string;
  server: string;
  tool: string;
  uri: string;
  html: string;
  csp?: DeclaredCsp;
  /** The policy the sandbox proxy will put on the View (for display; the proxy builds its own from `csp`). */
  policy: string;
  dropped: string[];
  permissions?: Record<string, unknown>;
  prefersBorder?: boolean;
}

/** A refusal the View receives as a JSON-RPC error. */
export class ViewCallRefused extends CandorError {
  override readonly name = 'ViewCallRefused';
  constructor(message: string) {
    super(message, { code: 'view_call_refused' });
  }
}

/**
 * The wire `_meta.ui.visibility` says "app" may call (absent: model and app).
 *
 * @example
 * ```ts
 * appMayCall(host.tool('notes__delete_note')!); // false: visibility ['model']
 * ```
 */
export function appMayCall(tool: CatalogTool): boolean {
  const ui = (tool.wire._meta as { ui?: { visibility?: unknown } } | undefined)?.ui;
  if (ui?.visibility === undefined) return true;
  return Array.isArray(ui.visibility) && ui.visibility.includes('app');
}

/**
 * Opens Views and decides their calls.
 *
 * @example
 * ```ts
 * const gate = new ViewGate({ host, policy, broker, log });
 * const view = await gate.open('notes__list_notes');
 * await gate.call(view.viewId, 'add_note', { text: 'hi' });
 * ```
 */
export class ViewGate {
  readonly #views = new Map<string, OpenView>();
  readonly #deps: { host: Host; policy: Policy; broker: ConfirmBroker; log: SessionLog };

  constructor(deps: { host: Host; policy: Policy; broker: ConfirmBroker; log: SessionLog }) {
    this.#deps = deps;
  }

  /** Read the View resource of a tool from its own server and bind a new View id to that server. */
  async open(toolName: unknown): Promise<ViewResource> {
    if (typeof toolName !== 'string') throw new ViewCallRefused('Say which tool\'s View to open ("tool").');
    const tool = this.#deps.host.tool(toolName);
    if (!tool) throw new ViewCallRefused(`No tool named ${toolName}.`);
    const uri = tool.ui?.resourceUri;
    if (!uri?.startsWith('ui://')) throw new ViewCallRefused(`${tool.name} has no ui:// View (_meta.ui.resourceUri).`);
    const client = this.#deps.host.client(tool.server);
    if (!client) throw new ViewCallRefused(`${tool.server} is not connected.`);
    const read = (await client.readResource({ uri })) as {
      contents?: Array<{
        uri?: string;
        mimeType?: string;
        text?: string;
        blob?: string;
        _meta?: Record<string, unknown>;
      }>;
    };
    const content = read.contents?.find((c) => c.mimeType === MCP_APP_MIME) ?? read.contents?.[0];
    if (!content || content.mimeType !== MCP_APP_MIME) {
      throw new ViewCallRefused(`${uri} is not an MCP App View (mimeType must be ${MCP_APP_MIME}).`);
    }
    const html =
      typeof content.text === 'string'
        ? content.text
        : typeof content.blob === 'string'
          ? Buffer.from(content.blob, 'base64').toString('utf8')
          : undefined;
    if (html === undefined) throw new ViewCallRefused(`${uri} has neither text nor blob content.`);
    const ui = (content._meta?.ui ?? {}) as {
      csp?: DeclaredCsp;
      permissions?: Record<string, unknown>;
      prefersBorder?: boolean;
    };
    const view: OpenView = { id: randomUUID(), server: tool.server, tool: tool.name, uri };
    this.#views.set(view.id, view);
    const { policy, dropped } = viewCsp(ui.csp);
    const resource: ViewResource = {
      viewId: view.id,
      server: view.server,
      tool: view.tool,
      uri,
      html,
      policy,
      dropped,
    };
    if (ui.csp) resource.csp = ui.csp;
    if (ui.permissions) resource.permissions = ui.permissions;
    if (typeof ui.prefersBorder === 'boolean') resource.prefersBorder = ui.prefersBorder;
    this.#deps.log.add({
      kind: 'view',
      origin: `view:${view.server}`,
      tool: view.tool,
      summary: `opened ${uri}${dropped.length > 0 ? `; CSP entries dropped: ${dropped.join(', ')}` : ''}`,
    });
    return resource;
  }

  /** The server a View is bound to, or undefined. */
  serverOf(viewId: unknown): string | undefined {
    return typeof viewId === 'string' ? this.#views.get(viewId)?.server : undefined;
  }

  close(viewId: unknown): void {
    if (typeof viewId === 'string') this.#views.delete(viewId);
  }

  /** Decide and run a View's `tools/call`. Throws `ViewCallRefused` with the reason when it may not run. */
  async call(viewId: unknown, name: unknown, args: unknown): Promise<CallOutcome> {
    const view = typeof viewId === 'string' ? this.#views.get(viewId) : undefined;
    if (!view) throw new ViewCallRefused('This View is not open (unknown view id).');
    const origin = `view:${view.server}` as const;
    const refuse = (message: string, tool?: string): never => {
      this.#deps.log.add({ kind: 'refusal', origin, ...(tool ? { tool } : {}), summary: message });
      throw new ViewCallRefused(message);
    };
    if (typeof name !== 'string' || name.length === 0) refuse('tools/call needs a tool name.');
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
      refuse('tools/call arguments must be an object.');
    }
    // The name is the tool's name on the View's own server: never a namespaced name of another server.
    const tool = this.#deps.host.tool(`${view.server}${DEFAULT_SEPARATOR}${name as string}`);
    if (!tool || tool.server !== view.server) {
      return refuse(
        `A View of ${view.server} may call only ${view.server}'s tools; ${view.server} has no tool "${name as string}".`,
      );
    }
    if (!appMayCall(tool)) {
      return refuse(
        `${tool.name} is not for apps (_meta.ui.visibility lacks "app"); a View may not call it.`,
        tool.name,
      );
    }
    const destructive = !tool.hints.readOnlyHint && tool.hints.destructiveHint;
    if (destructive && this.#deps.policy.decide({ tool }).decision === 'allow') {
      // The policy would let it run unasked; a View's destructive call still needs a person's click.
      const answer = await callScope.run({ origin }, () =>
        this.#deps.broker.ask({
          tool: tool.name,
          server: tool.server,
          title: tool.title,
          args: (args ?? {}) as Record<string, unknown>,
          hints: { ...tool.hints },
          trust: tool.trust,
          reason: `A View of ${view.server} asks to run a destructive tool.`,
          canRemember: false,
          pin: tool.pin,
        }),
      );
      if (answer === 'deny') return refuse(`${tool.name}: the person denied this call.`, tool.name);
    }
    this.#deps.log.add({ kind: 'call', origin, tool: tool.name, summary: 'called from a View', detail: args ?? {} });
    const outcome = await callScope.run({ origin }, () =>
      this.#deps.host.callFromApp(
        {
          server: view.server,
          tool: tool.name,
          args: (args ?? {}) as Record<string, unknown>,
        },
        { meta: LOG_META },
      ),
    );
    this.#deps.log.add({
      kind: 'call',
      origin,
      tool: tool.name,
      summary: `${outcome.status}${outcome.message ? `: ${outcome.message}` : ''}`,
    });
    return outcome;
  }
}
