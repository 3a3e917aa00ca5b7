/**
 * A plain `CallContext` for unit tests of middleware (no transport behind it;
 * the end-to-end tests in test/engine-*.test.ts use the real one).
 */
import type { CallContext } from '../../src/pipeline/types.js';
import type { ToolDefinition } from '../../src/tool/types.js';

export function makeCallContext(
  tool: ToolDefinition,
  args: unknown = {},
  overrides: Partial<CallContext> = {},
): CallContext {
  const controller = new AbortController();
  const ctx: CallContext = {
    tool,
    args,
    signal: controller.signal,
    requestId: 1,
    era: '2025',
    state: new Map(),
    clientCapabilities: {},
    abort: (reason?: unknown) => controller.abort(reason),
    onAbort: (listener) => {
      const heard = () => listener(controller.signal.reason);
      if (controller.signal.aborted) heard();
      else controller.signal.addEventListener('abort', heard, { once: true });
      return () => controller.signal.removeEventListener('abort', heard);
    },
    progress: async () => {},
    log: async () => {},
    elicit: async () => ({ action: 'cancel' }),
    elicitationComplete: () => {},
    confirm: async () => false,
    sample: async () => {
      throw new Error('no sampling in unit tests');
    },
    listRoots: async () => [],
    becomeTask: async () => {},
    ...overrides,
  };
  return ctx;
}
