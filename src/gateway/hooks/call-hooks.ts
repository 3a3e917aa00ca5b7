/**
 * The hooks as two steps of the gateway's call path: `before` asks the beforeCall hook
 * (allow: the call goes upstream; deny: a tool error with the hook's reason; replace: the
 * hook's result instead of the call), `after` asks the afterCall hook with the result
 * (allow: it goes back; deny: withheld with the reason; replace: the hook's result goes
 * back). A hook that fails (no answer in time, an HTTP error, an answer of no known form)
 * refuses the call when the hooks fail `closed` (the default) and lets it go on when
 * they fail `open`. A server's `hooks` keys override the gateway's.
 */
import type { CatalogTool } from '../../host/types.js';
import { toolErrorResult } from '../../pipeline/result.js';
import type { CallToolResult, ToolContext } from '../../tool/types.js';
import { askHook } from './ask.js';
import { type HookDecision, type HookDocument, type HookSettings, MAX_HOOK_TIMEOUT_MS } from './types.js';

/** What a step came to: its decision (absent when no hook is set for the server) and the result to give back. */
export interface HookStep {
  decision?: HookDecision;
  /** `before`: set only when the call must not go upstream; `after`: the result to give back. */
  result?: CallToolResult;
}

/** The two steps. */
export interface CallHooks {
  before(tool: CatalogTool, args: Record<string, unknown>, ctx: ToolContext): Promise<HookStep>;
  after(
    tool: CatalogTool,
    args: Record<string, unknown>,
    ctx: ToolContext,
    result: CallToolResult,
  ): Promise<HookStep & { result: CallToolResult }>;
}

const DEFAULT_TIMEOUT_MS = 2000;

function documentOf(
  hook: HookDocument['hook'],
  tool: CatalogTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
): HookDocument {
  const person = ctx.auth?.subject ?? ctx.auth?.clientId;
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.hints;
  return {
    hook,
    ...(person !== undefined ? { person } : {}),
    server: tool.server,
    tool: tool.name,
    serverTool: tool.toolName,
    hints: { readOnlyHint, destructiveHint, idempotentHint, openWorldHint },
    arguments: args,
  };
}

/**
 * Make the steps from the gateway's and each server's `hooks`; undefined when neither has any.
 *
 * @example
 * ```ts
 * const hooks = callHooks({ gateway: { beforeCall: 'http://127.0.0.1:8787/before' }, server: () => undefined });
 * const { result: instead } = (await hooks?.before(tool, args, ctx)) ?? {};
 * ```
 */
export function callHooks(options: {
  gateway?: HookSettings | undefined;
  server: (name: string) => HookSettings | undefined;
  /** Whether any server has hooks of its own. */
  anyServer: boolean;
  /** Told when a hook fails and the call goes on (hooks failing open), so the failure is seen somewhere. */
  warn?: (message: string) => void;
}): CallHooks | undefined {
  const { gateway } = options;
  if (!options.anyServer && gateway?.beforeCall === undefined && gateway?.afterCall === undefined) return undefined;
  const settingsFor = (server: string): HookSettings => {
    const settings = { ...gateway, ...options.server(server) };
    // Settings made in code skip the config's check: clamped here too (a longer timer fires at once).
    if (settings.timeoutMs !== undefined && !(settings.timeoutMs <= MAX_HOOK_TIMEOUT_MS))
      settings.timeoutMs = MAX_HOOK_TIMEOUT_MS;
    return settings;
  };
  return {
    async before(tool, args, ctx) {
      const settings = settingsFor(tool.server);
      if (settings.beforeCall === undefined) return {};
      const answer = await askHook(settings.beforeCall, documentOf('beforeCall', tool, args, ctx), {
        timeoutMs: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      });
      if ('failed' in answer) {
        if (settings.failure === 'open') {
          options.warn?.(
            `the beforeCall hook failed for ${tool.name} (${answer.failed}); the call went on (hooks fail open).`,
          );
          return { decision: 'failed-open' };
        }
        return {
          decision: 'failed-closed',
          result: toolErrorResult(
            `candor gateway: ${tool.name} was refused: the beforeCall hook failed (${answer.failed}) and the hooks fail closed.`,
          ),
        };
      }
      if (answer.decision === 'allow') return { decision: 'allow' };
      if (answer.decision === 'deny')
        return {
          decision: 'deny',
          result: toolErrorResult(`candor gateway: ${tool.name} was refused by the beforeCall hook: ${answer.reason}`),
        };
      return { decision: 'replace', result: answer.result };
    },
    async after(tool, args, ctx, result) {
      const settings = settingsFor(tool.server);
      if (settings.afterCall === undefined) return { result };
      const answer = await askHook(
        settings.afterCall,
        { ...documentOf('afterCall', tool, args, ctx), result },
        { timeoutMs: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS },
      );
      if ('failed' in answer) {
        if (settings.failure === 'open') {
          options.warn?.(
            `the afterCall hook failed for ${tool.name} (${answer.failed}); the result went on (hooks fail open).`,
          );
          return { decision: 'failed-open', result };
        }
        return {
          decision: 'failed-closed',
          result: toolErrorResult(
            `candor gateway: the result of ${tool.name} was withheld: the afterCall hook failed (${answer.failed}) and the hooks fail closed.`,
          ),
        };
      }
      if (answer.decision === 'allow') return { decision: 'allow', result };
      if (answer.decision === 'deny')
        return {
          decision: 'deny',
          result: toolErrorResult(
            `candor gateway: the result of ${tool.name} was withheld by the afterCall hook: ${answer.reason}`,
          ),
        };
      return { decision: 'replace', result: answer.result };
    },
  };
}
