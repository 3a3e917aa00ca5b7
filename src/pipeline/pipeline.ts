/**
 * The tool-call pipeline: the built-in middleware in their fixed order
 * (issue 3), then the user's middleware, then the handler.
 *
 *   availability → rate limit → input validation → timeout →
 *   confirm destructive (opt-in) → audit (opt-in) → user middleware → handler
 *
 * Each tool's chain is composed once and cached: layers a tool does not need
 * (no rate limit, not destructive) are left out rather than skipped per call.
 */
import type { ToolRunner, ToolSource } from '../engine/engine.js';
import { type ServerLogger, stderrLogger } from '../engine/logger.js';
import type { CallToolResult, ToolDefinition } from '../tool/types.js';
import { compose } from './compose.js';
import { type AuditEvent, audit } from './middleware/audit.js';
import { availability } from './middleware/availability.js';
import { type ConfirmDestructiveOptions, confirmDestructive } from './middleware/confirm-destructive.js';
import { type RateLimitOptions, rateLimit } from './middleware/rate-limit.js';
import { timeout } from './middleware/timeout.js';
import { validateInput } from './middleware/validate-input.js';
import { failureResult, invokeHandler } from './result.js';
import type { CallContext, Middleware } from './types.js';

/** Pipeline options (part of `createServer`'s options). */
export interface PipelineOptions {
  /** Your middleware, run after the built-in ones, first = outermost. */
  middleware?: readonly Middleware[];
  /** Default per-call time limit in ms (tools may set `timeoutMs`). Default 30 000; 0 turns it off. */
  timeoutMs?: number;
  /** Ask the user before destructive calls (opt-in). */
  confirmDestructive?: boolean | ConfirmDestructiveOptions;
  /** Called once per call with tool, argument shapes, outcome and duration. */
  audit?: (event: AuditEvent) => void | Promise<void>;
  /** Build the per-tool rate limiter (any rate-limiter-flexible `RateLimiterAbstract`). Default: in memory. */
  rateLimitStore?: RateLimitOptions['store'];
  /** What per-tool rate limits are counted per. Default: the tool alone. */
  rateLimitKey?: RateLimitOptions['key'];
  logger?: ServerLogger;
}

/**
 * Build the function that runs one call through the pipeline. It resolves to a
 * result, or rejects only with a `ProtocolError` (e.g. a disabled tool).
 *
 * @example
 * ```ts
 * const run = createToolPipeline({ tools: registry, middleware: [timing] });
 * const result = await run(ctx);
 * ```
 */
export function createToolPipeline(options: PipelineOptions & { tools: ToolSource }): ToolRunner {
  const { tools, middleware = [], timeoutMs = 30_000, logger = stderrLogger() } = options;
  const builtins = {
    availability: availability({ isCallable: (name) => tools.callable(name) !== undefined }),
    rateLimit: rateLimit({ store: options.rateLimitStore, key: options.rateLimitKey, logger }),
    validate: validateInput(),
    timeout: timeout({ defaultMs: timeoutMs }),
    confirm: options.confirmDestructive
      ? confirmDestructive(options.confirmDestructive === true ? {} : options.confirmDestructive)
      : undefined,
    audit: options.audit ? audit({ sink: options.audit, logger }) : undefined,
  };
  const user = [...middleware];
  const chains = new WeakMap<ToolDefinition, Middleware>();
  const chainFor = (tool: ToolDefinition): Middleware => {
    let chain = chains.get(tool);
    if (chain === undefined) {
      const layers: Middleware[] = [builtins.availability];
      if (tool.rateLimit) layers.push(builtins.rateLimit);
      layers.push(builtins.validate);
      if ((tool.timeoutMs ?? timeoutMs) > 0) layers.push(builtins.timeout);
      if (builtins.confirm && !tool.hints.readOnlyHint && tool.hints.destructiveHint) layers.push(builtins.confirm);
      if (builtins.audit) layers.push(builtins.audit);
      layers.push(...user);
      chain = compose(layers);
      chains.set(tool, chain);
    }
    return chain;
  };
  return async function runTool(ctx: CallContext): Promise<CallToolResult> {
    try {
      return await chainFor(ctx.tool)(ctx, () => invokeHandler(ctx, logger));
    } catch (error) {
      // A user middleware threw: same masking as a handler failure; ProtocolErrors pass.
      return failureResult(error, ctx, logger);
    }
  };
}
