/**
 * What a refused call says: which quota, how many calls per which window for whom,
 * and how long to wait, in words a model can act on (SEP-1303: a tool error, so
 * the model can wait and retry rather than give up) and in `_meta` for programs.
 */
import type { CallToolResult } from '../../tool/types.js';
import { QUOTA_META_KEY, type Quota, type QuotaRefusal } from './types.js';

/**
 * The quota's name, else a description made from its selectors.
 *
 * @example
 * ```ts
 * quotaLabel({ effects: ['destructive'], max: 5, windowMs: 3_600_000 }); // 'destructive calls'
 * ```
 */
export function quotaLabel(quota: Quota): string {
  if (quota.name !== undefined) return `"${quota.name}"`;
  const effects = quota.effects ? `${quota.effects.join(' or ')} ` : '';
  const tools = quota.tools ? ` to ${quota.tools.join(', ')}` : '';
  const servers = quota.servers ? ` on ${quota.servers.join(', ')}` : '';
  return `${effects}calls${tools}${servers}`;
}

/**
 * The `isError` result of a call refused by `quota`, to be retried after `retryAfterMs`.
 *
 * @example
 * ```ts
 * quotaRefused({ effects: ['destructive'], max: 5, windowMs: 3_600_000 }, 61_000).content[0].text;
 * // 'Quota reached for destructive calls: at most 5 per hour for each person. Try again in 1 minute 1 second.'
 * ```
 */
export function quotaRefused(quota: Quota, retryAfterMs: number): CallToolResult {
  const per = quota.per ?? 'person';
  const refusal: QuotaRefusal = {
    quota: quota.name ?? quotaLabel(quota),
    max: quota.max,
    windowMs: quota.windowMs,
    per,
    retryAfterMs,
  };
  const text =
    `Quota reached for ${quotaLabel(quota)}: at most ${quota.max} per ${windowText(quota.windowMs)} ` +
    `${per === 'person' ? 'for each person' : 'for everyone together'}. Try again in ${waitText(retryAfterMs)}.`;
  return { content: [{ type: 'text', text }], isError: true, _meta: { [QUOTA_META_KEY]: refusal } };
}

/**
 * A wait in words, rounded up to the second: `45 seconds`, `3 minutes 5 seconds`, `2 hours 1 minute`.
 *
 * @example
 * ```ts
 * waitText(125_000); // '2 minutes 5 seconds'
 * ```
 */
export function waitText(ms: number): string {
  const total = Math.max(1, Math.ceil(ms / 1000));
  if (total >= 3600) {
    // Past an hour, whole minutes, rounded up: never sooner than the quota allows.
    const all = Math.ceil(total / 60);
    const minutes = all % 60;
    return [unit(Math.floor(all / 60), 'hour'), minutes > 0 ? unit(minutes, 'minute') : ''].filter(Boolean).join(' ');
  }
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  if (minutes > 0)
    return [unit(minutes, 'minute'), seconds > 0 ? unit(seconds, 'second') : ''].filter(Boolean).join(' ');
  return unit(seconds, 'second');
}

function windowText(ms: number): string {
  if (ms % 86_400_000 === 0) return ms === 86_400_000 ? 'day' : `${ms / 86_400_000} days`;
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return ms === 1000 ? 'second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}

function unit(n: number, name: string): string {
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}
