/**
 * The result guards on the channels besides a tool's result: a resource read, a prompt,
 * an upstream's log and progress notifications and its error messages. Each message is
 * searched whole (every string, as for a result) with the server's settings; secrets are
 * redacted (or the message withheld with `block`), and injected instructions label the
 * message (`_meta`) or, with `block`, withhold it. The budget is the result's, on the
 * gateway's thread (these messages are small); one that does not fit it is withheld when
 * the server is untrusted.
 */
import { Budget, GuardBudgetExceeded } from './budget.js';
import { DEFAULT_BUDGET_MS } from './guard-pool.js';
import { writeRedactions } from './inspect.js';
import { RESULT_LABELS_KEY, resultLabels } from './labels.js';
import { copyContainers, messageSlots } from './message-slots.js';
import { scanSlots } from './scan.js';
import { toolResultSettings } from './tool-settings.js';
import type { ResultFinding, ResultGuardSettings, ServerResultSettings } from './types.js';

/** Which channel a message came on. */
export type GuardedChannel = 'resource' | 'prompt' | 'log' | 'progress' | 'error';

/** What became of a message: the message to pass on (undefined: withhold it), and what was found. */
export interface GuardedMessage<T> {
  message: T | undefined;
  findings: ResultFinding[];
  /** Why it was withheld, in a sentence. */
  withheld?: string;
}

/** Guards one message of an upstream. */
export type MessageGuard = <T extends object>(
  server: string,
  channel: GuardedChannel,
  message: T,
) => Promise<GuardedMessage<T>>;

// Where the longest part one rule may read at once ends the budget (see budget.ts).
const MAX_SPAN = 64 * 1024;

/**
 * Make the guard from the gateway's and each server's settings and trust.
 *
 * @example
 * ```ts
 * const guard = messageGuard({ gateway: {}, server: (n) => servers[n]?.results, trusted: (n) => servers[n]?.trust === 'trusted' });
 * const { message } = await guard('web', 'resource', readResult);
 * ```
 */
export function messageGuard(options: {
  gateway?: ResultGuardSettings | undefined;
  server: (name: string) => ServerResultSettings | undefined;
  trusted: (name: string) => boolean;
}): MessageGuard {
  const settingsFor = toolResultSettings(options);
  return async <T extends object>(server: string, channel: GuardedChannel, original: T): Promise<GuardedMessage<T>> => {
    const settings = settingsFor({ server, name: `${server}__${channel}`, toolName: channel });
    const untrusted = !options.trusted(server);
    const secrets = settings.secrets ?? 'redact';
    const injection = settings.injection ?? (untrusted ? 'annotate' : 'off');
    if (secrets === 'off' && injection === 'off') return { message: original, findings: [] };
    const run = { secrets: secrets !== 'off', injection: injection !== 'off' };
    let scanned: Awaited<ReturnType<typeof scanSlots>>;
    try {
      scanned = await scanSlots(
        messageSlots(original),
        run,
        new Budget(settings.budgetMs ?? DEFAULT_BUDGET_MS, MAX_SPAN),
      );
    } catch (error) {
      if (!(error instanceof GuardBudgetExceeded)) throw error;
      const finding: ResultFinding = { kind: 'injection', rule: 'guard-budget-exceeded' };
      return untrusted
        ? {
            message: undefined,
            findings: [finding],
            withheld: `its checks did not finish within ${settings.budgetMs ?? DEFAULT_BUDGET_MS} ms`,
          }
        : { message: original, findings: [finding] };
    }
    const findings = scanned.findings.filter((f) => f.level !== 'note');
    const kinds = [...new Set(findings.map((f) => f.kind))];
    if (kinds.length === 0) return { message: original, findings };
    const blocked = kinds.filter((k) => (k === 'secret' ? secrets : injection) === 'block');
    if (blocked.length > 0)
      return {
        message: undefined,
        findings,
        withheld: `it contains ${blocked.map((k) => (k === 'secret' ? 'a secret' : 'injected instructions')).join(' and ')}`,
      };
    const redacting = secrets === 'redact' && scanned.ranges.size > 0;
    const message = (redacting ? copyContainers(original) : { ...original }) as T & { _meta?: Record<string, unknown> };
    if (redacting) writeRedactions(messageSlots(message), scanned.ranges);
    // A string (a log's text, a progress message) has no `_meta` of its own: the channel's caller labels it.
    if (channel === 'resource' || channel === 'prompt')
      message._meta = {
        ...message._meta,
        [RESULT_LABELS_KEY]: resultLabels(
          kinds,
          findings.map((f) => f.rule),
        ),
      };
    return { message, findings };
  };
}
