/**
 * Waiting on a condition in a test: poll it until it holds, with a deadline that only
 * decides when to give up (never how long a test waits when things go right).
 */

const INTERVAL_MS = 20;

/**
 * Ask `probe` until `ok(value)`; the last value comes back either way (the caller asserts it).
 *
 * @example
 * ```ts
 * const result = await until(() => client.callTool({ name: 'notes__read', arguments: {} }), (r) => !r.isError);
 * expect(result.isError).toBeFalsy();
 * ```
 */
export async function until<T>(probe: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
  }
}

/**
 * Resolve once `condition()` holds; reject naming `what` after `timeoutMs`.
 *
 * @example
 * ```ts
 * await waitFor(() => notifications.length > 0, 'a list_changed notification');
 * ```
 */
export async function waitFor(condition: () => boolean, what = 'the condition', timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
  }
}
