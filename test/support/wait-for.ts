/**
 * Wait until an observable condition holds, polling it. The deadline is an
 * overall bound for a broken run, generous on purpose; nothing asserts on how
 * long the wait took.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  {
    timeoutMs = 10_000,
    intervalMs = 5,
    what = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
