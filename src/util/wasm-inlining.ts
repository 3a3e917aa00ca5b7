/**
 * A guard against a fault in Node 20's V8 (11.x): optimized JavaScript that
 * inlined a call into WebAssembly, when deoptimized, can abort the process
 * ("Fatal error … unreachable code" in `Deoptimizer::DoComputeBuiltinContinuation`).
 * It showed under load in cedar-wasm's bindings (a few thousand policy
 * evaluations in one process, one run in two). V8 12 (Node 22) does not have
 * it. Turning that one optimization off costs a few nanoseconds per call into
 * WebAssembly; every module that loads WebAssembly calls this first.
 */

type V8 = { setFlagsFromString(flags: string): void };
type NodeProcess = { versions?: { v8?: string }; getBuiltinModule?: (id: string) => unknown };

let done = false;

/**
 * On V8 before 12, stop TurboFan inlining JavaScript-to-WebAssembly calls (once per process;
 * elsewhere nothing).
 *
 * @example
 * ```ts
 * avoidWasmInliningFault();
 * const cedar = require('@cedar-policy/cedar-wasm/nodejs');
 * ```
 */
export function avoidWasmInliningFault(): void {
  if (done) return;
  done = true;
  const proc = (globalThis as { process?: NodeProcess }).process;
  const major = Number.parseInt(proc?.versions?.v8 ?? '', 10);
  if (!(major < 12) || typeof proc?.getBuiltinModule !== 'function') return;
  (proc.getBuiltinModule('node:v8') as V8 | undefined)?.setFlagsFromString('--no-turbo-inline-js-wasm-calls');
}
