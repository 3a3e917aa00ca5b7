/**
 * The tool-call pipeline: the built-in middleware in their fixed order,
 * then the user's middleware, then the handler.
 *
 *   availability → rate limit → input validation → timeout →
 *   confirm destructive (opt-in) → audit (opt-in) → user middleware → handler
 *
 * Each tool's chain is composed once and cached: layers a tool does not need
 * (no rate limit, not destructive) are left out rather than skipped per call;
 * a tool that needs only the first three runs them inline, without a promise
 * per layer.
 */

import type { CallToolResult, ToolDefinition, ValidationResult } from '../tool/types.js';
import { type ServerLogger, stderrLogger } from '../util/logger.js';
import { compose } from './compose.js';
import { Deadlines } from './deadlines.js';
import { type AuditEvent, audit } from './middleware/audit.js';
import { availability, disabledError } from './middleware/availability.js';
import { type ConfirmDestructiveOptions, confirmDestructive } from './middleware/confirm-destructive.js';
import { type RateLimitOptions, rateLimit } from './middleware/rate-limit.js';
import { limitOf, timeout, withinDeadline } from './middleware/timeout.js';
import { otelRegistered, tracing } from './middleware/tracing.js';
import { applyValidation, validateInput } from './middleware/validate-input.js';
import { callHandler, failureResult, invokeHandler } from './result.js';
import type { CallContext, Middleware, ToolRunner, ToolSource } from './types.js';

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
  /**
   * OpenTelemetry spans for tool calls (needs `@opentelemetry/api`). Default:
   * on when the application registered a tracer provider before creating
   * the server, else off (and nothing is loaded).
   */
  tracing?: boolean;
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
  // Disabled means registered here and switched off. A tool the registry does not hold was offered
  // by the request's tool scope (e.g. a gateway's per-endpoint tools), which decides what is callable.
  const isCallable = (name: string) => tools.callable(name) !== undefined || tools.get(name) === undefined;
  const deadlines = new Deadlines();
  const builtins = {
    availability: availability({ isCallable }),
    rateLimit: rateLimit({ store: options.rateLimitStore, key: options.rateLimitKey, logger }),
    validate: validateInput(),
    timeout: timeout({ defaultMs: timeoutMs, deadlines }),
    confirm: options.confirmDestructive
      ? confirmDestructive(options.confirmDestructive === true ? {} : options.confirmDestructive)
      : undefined,
    audit: options.audit ? audit({ sink: options.audit, logger }) : undefined,
    tracing:
      (options.tracing ?? otelRegistered())
        ? tracing({
            onUnavailable: (error) =>
              logger.warn('tracing is on but @opentelemetry/api cannot be loaded; install it to get spans', { error }),
          })
        : undefined,
  };
  const user = [...middleware];
  const plans = new WeakMap<ToolDefinition, Plan>();
  const planFor = (tool: ToolDefinition): Plan => {
    let plan = plans.get(tool);
    if (plan === undefined) {
      const layers: Middleware[] = builtins.tracing
        ? [builtins.tracing, builtins.availability]
        : [builtins.availability];
      if (tool.rateLimit) layers.push(builtins.rateLimit);
      layers.push(builtins.validate);
      const limit = limitOf(tool.timeoutMs, timeoutMs);
      if (limit !== undefined) layers.push(builtins.timeout);
      if (builtins.confirm && !tool.hints.readOnlyHint && tool.hints.destructiveHint) layers.push(builtins.confirm);
      if (builtins.audit) layers.push(builtins.audit);
      layers.push(...user);
      // Only availability, validation and the time limit: run them inline (see runDirect).
      const direct = layers.length === (limit === undefined ? 2 : 3) && !tool.rateLimit && !builtins.tracing;
      plan = { chain: compose(layers), direct, limit };
      plans.set(tool, plan);
    }
    return plan;
  };

  async function runChain(ctx: CallContext, chain: Middleware): Promise<CallToolResult> {
    try {
      return await chain(ctx, () => invokeHandler(ctx, logger));
    } catch (error) {
      // A user middleware threw: same masking as a handler failure; ProtocolErrors pass.
      return failureResult(error, ctx, logger);
    }
  }

  /**
   * The same steps as the composed availability → validation → timeout chain,
   * without a promise per layer: a tool that needs no other
   * middleware costs one promise when its handler answers synchronously, and
   * a deadline only when it does not.
   */
  function runDirect(ctx: CallContext, plan: Plan): Promise<CallToolResult> {
    try {
      if (!isCallable(ctx.tool.name)) return Promise.reject(disabledError(ctx.tool.name));
      const checked = ctx.tool.input.validate(ctx.args);
      if (checked instanceof Promise) {
        // An asynchronous validator (some Standard Schemas): the rest follows it; a failing
        // validator is masked like a handler failure, as in the composed chain.
        return checked
          .then((c) => validated(ctx, plan, c))
          .catch((error: unknown) => failureResult(error, ctx, logger));
      }
      return validated(ctx, plan, checked);
    } catch (error) {
      // Only a ProtocolError reaches here (callHandler masks the rest).
      return Promise.reject(error);
    }
  }

  /** Continue a direct call once its arguments are checked. Throws only a ProtocolError. */
  function validated(ctx: CallContext, plan: Plan, checked: ValidationResult<unknown>): Promise<CallToolResult> {
    const invalid = applyValidation(ctx, checked);
    if (invalid !== undefined) return Promise.resolve(invalid);
    const answer = callHandler(ctx, logger);
    if (!(answer instanceof Promise)) return Promise.resolve(answer);
    // The limit counts from when the handler first yields (its synchronous part cannot be interrupted anyway).
    return plan.limit === undefined ? answer : withinDeadline(ctx, plan.limit, answer, deadlines, performance.now());
  }

  return function runTool(ctx: CallContext): Promise<CallToolResult> {
    const plan = planFor(ctx.tool);
    return plan.direct ? runDirect(ctx, plan) : runChain(ctx, plan.chain);
  };
}

/** How one tool's calls run, worked out once per tool definition. */
interface Plan {
  /** The composed middleware chain. */
  readonly chain: Middleware;
  /** Whether only availability, validation and the time limit apply (runDirect). */
  readonly direct: boolean;
  /** The time limit in ms, if any. */
  readonly limit: number | undefined;
}
