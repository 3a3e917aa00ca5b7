/**
 * `candor/observe`: run a server in a throwaway sandbox and check what its
 * tools do against what their hints say. Linux only (bubblewrap, strace).
 */
export type { ObserveOptions, ObserveReport, ToolObservation } from './observe.js';
export { observe } from './observe.js';
export { checkPlatform } from './sandbox.js';
export type { NotExercised, ServerVerdict, VerdictKind } from './server-verdict.js';
export { VERDICT_EXIT } from './server-verdict.js';
export type { TracedEffect } from './trace.js';

import type { TracedEffect } from './trace.js';
/** @deprecated Renamed {@link TracedEffect} (a tool's `Effect` is the declared one); removed in the next minor release. */
export type Effect = TracedEffect;
export { parseTrace } from './trace.js';
export type { CallRecord } from './verdicts.js';
export { OBSERVE_RULES } from './verdicts.js';
