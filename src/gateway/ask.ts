/**
 * A policy `ask` becomes a question to the person behind the downstream
 * client: `elicitation/create` in the 2025 era, an `input_required` result in
 * the 2026-07-28 era (the engine's `ctx.elicit()` does both). The host hands
 * `onConfirm` the call it belongs to (`confirmContext`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { InputRequiredError } from '../engine/modern/call-context.js';
import { argumentSummary } from '../host/code-mode/script-plan.js';
import type { ConfirmAnswer, ConfirmRequest } from '../host/types.js';
import type { ToolContext } from '../tool/types.js';

/** What one downstream call carries while the host decides and runs it. */
export interface CallScope {
  ctx: ToolContext;
  server: string;
  /** Set when a person was asked (or could not be). */
  asked?: { request: ConfirmRequest; answer: AuditAnswer | 'no-elicitation'; detail?: string };
  /** The gateway's Cedar rules permit `call_unconfirmed` for this person and tool: no question is asked. */
  unconfirmed?: boolean;
  /** 2026-07-28: the engine must answer `input_required`; rethrown once the host returns. */
  inputRequired?: InputRequiredError;
  /** The call is made by a code-mode script: the script's one question answers for it (code-mode/script-run.ts). */
  script?: { confirm(request: ConfirmRequest, scope: CallScope): Promise<ConfirmAnswer> };
}

type AuditAnswer = ConfirmAnswer | 'decline' | 'cancel';

/**
 * The call in flight to an HTTP upstream, for requests that upstream sends on the call's
 * own stream (upstream-requests.ts). Only those calls run in it: in node 20 an active
 * AsyncLocalStorage runs a hook for every promise in the process.
 */
export const callScope = new AsyncLocalStorage<CallScope>();

const CHOICES: Array<{ const: ConfirmAnswer; title: string }> = [
  { const: 'allow-once', title: 'Allow once' },
  { const: 'allow-always', title: 'Allow always (until the tool changes)' },
  { const: 'deny', title: 'Deny' },
];

/**
 * The host's `onConfirm` for a gateway: ask the downstream client's user.
 *
 * @example
 * ```ts
 * createHost({ servers, onConfirm: confirmDownstream });
 * ```
 */
export async function confirmDownstream(request: ConfirmRequest, context?: unknown): Promise<ConfirmAnswer> {
  const scope = (context as CallScope | undefined) ?? callScope.getStore();
  if (!scope) return 'deny';
  // A standing permission (Cedar's call_unconfirmed) covers the person's own intent, not what untrusted content asks for.
  if (scope.unconfirmed && request.taint === undefined) return 'allow-once';
  if (scope.script) return scope.script.confirm(request, scope);
  const choices = request.canRemember ? CHOICES : CHOICES.filter((c) => c.const !== 'allow-always');
  try {
    const answer = await scope.ctx.elicit(decisionQuestion(questionText(request), `Run ${request.tool}?`, choices));
    if (answer.action !== 'accept') {
      scope.asked = { request, answer: answer.action };
      return 'deny';
    }
    const decision = answer.content?.decision;
    const chosen: ConfirmAnswer =
      decision === 'allow-once' || (decision === 'allow-always' && request.canRemember)
        ? decision
        : decision === 'allow-always'
          ? 'allow-once'
          : 'deny';
    scope.asked = { request, answer: chosen };
    return chosen;
  } catch (error) {
    if (error instanceof InputRequiredError) {
      // 2026-07-28: the question goes out as input_required; the client retries with the answer.
      scope.inputRequired = error;
      scope.asked = { request, answer: 'deny', detail: 'input_required' };
      return 'deny';
    }
    scope.asked = { request, answer: 'no-elicitation', detail: (error as Error).message };
    return 'deny';
  }
}

/**
 * A form with one choice, `decision`, defaulting to deny: how every confirmation is asked.
 *
 * @example
 * ```ts
 * await ctx.elicit(decisionQuestion('Allow this script?', 'Run this script?', [{ const: 'deny', title: 'Deny' }]));
 * ```
 */
export function decisionQuestion(
  message: string,
  description: string,
  choices: ReadonlyArray<{ const: string; title: string }>,
): { message: string; requestedSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] } } {
  return {
    message,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: { type: 'string', title: 'Decision', description, oneOf: [...choices], default: 'deny' },
      },
      required: ['decision'],
    },
  };
}

/** The question a person reads: tool, server, trust, hints, reason, and the arguments in short. */
export function questionText(request: ConfirmRequest): string {
  const hints = request.hints;
  const lines = [
    `candor gateway: allow ${request.title} (${request.tool})?`,
    `Why asked: ${request.reason}`,
    `Server: ${request.server} (${request.trust})`,
    `Hints: ${hints.readOnlyHint ? 'read-only' : 'writes'}, ${hints.destructiveHint ? 'destructive' : 'not destructive'}, ${hints.idempotentHint ? 'idempotent' : 'not idempotent'}, ${hints.openWorldHint ? 'open world' : 'closed world'}`,
    `Arguments: ${argumentSummary(request.args)}`,
  ];
  if (request.command) lines.push(`Command: ${request.command.text}`);
  if (request.pin.status === 'changed' || request.pin.status === 'renamed') {
    lines.push(`The tool changed since it was pinned: ${(request.pin.changes ?? []).map((c) => c.path).join(', ')}`);
  }
  return lines.join('\n');
}
