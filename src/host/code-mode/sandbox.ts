/**
 * The script sandbox: QuickJS compiled to WebAssembly (quickjs-emscripten), a
 * fresh runtime per run. The interpreter has no filesystem, network, timers,
 * modules or host objects; the one way out is the `tools` object built here,
 * whose methods hand the host a tool name and JSON text and get JSON text
 * back, so nothing of the host's (no function, object or prototype) is ever
 * reachable from the script. A runtime has its own heap (memory limit), stack
 * limit and interrupt handler (CPU time and the deadline).
 *
 * Why not `node:vm`: it is not a security boundary (a script reaches the host's
 * `Function` through any object handed in). Why not workerd: an isolate per run
 * means a separate process to start (or keep) and talk to per script, for a
 * boundary WebAssembly already gives in process.
 */
import { setMaxListeners } from 'node:events';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { isCandorError } from '../../errors.js';
import { avoidWasmInliningFault } from '../../util/wasm-inlining.js';
import { HaltScript, ScriptError } from './script-error.js';
import type { ResolvedLimits, ScriptLimits, ScriptOutcome } from './types.js';

const DEFAULT_LIMITS: ResolvedLimits = {
  memoryBytes: 32 * 1024 * 1024,
  // Below the WebAssembly stack V8 gives the interpreter, so QuickJS's own check fires first.
  stackBytes: 256 * 1024,
  cpuMs: 2_000,
  deadlineMs: 120_000,
  outputBytes: 64 * 1024,
  maxCalls: 100,
};

/** The file name scripts run under: errors name `script.js:<line>`. */
const FILE = 'script.js';

// Runs inside the sandbox before the script: builds `tools` and `console` from the two host
// functions and returns `start`, which runs the script's function and turns its value into JSON.
// JSON and Object are taken here, before the script can replace them.
const PRELUDE = `(function (call, print, namesJson) {
  'use strict';
  const parse = JSON.parse, stringify = JSON.stringify, freeze = Object.freeze;
  const names = parse(namesJson);
  const tools = Object.create(null);
  for (const name of names) {
    tools[name] = freeze(function (args) {
      return call(name, stringify(args === undefined ? {} : args)).then(parse);
    });
  }
  const text = (values) => values.map((v) => {
    if (typeof v === 'string') return v;
    try { return stringify(v) ?? String(v); } catch { return String(v); }
  }).join(' ');
  const say = (level) => freeze(function (...values) { print(level, text(values)); });
  globalThis.tools = freeze(tools);
  globalThis.console = freeze({ log: say('log'), info: say('log'), warn: say('error'), error: say('error') });
  return function start(script) {
    return script().then((value) => (value === undefined ? undefined : stringify(value)));
  };
})`;

let engine: Promise<QuickJSWASMModule> | undefined;

/** The WebAssembly module, loaded once per process (each run gets its own runtime in it). */
export function loadSandboxEngine(): Promise<QuickJSWASMModule> {
  avoidWasmInliningFault();
  // The package's types describe its CommonJS build; imported as ESM, the default is the variant.
  engine ??= newQuickJSWASMModuleFromVariant(releaseSync as unknown as QuickJSSyncVariant);
  return engine;
}

/** What {@link runScript} needs. */
export interface RunScriptOptions {
  /** The script: the body of an async function (`return` gives the result; `await` works). */
  code: string;
  /** The tool names the script's `tools` object offers. */
  names: readonly string[];
  /**
   * Run one tool call; resolves to the value the script receives (JSON-able). A rejection
   * with an Error rejects that call in the script; with {@link HaltScript}, it ends the run.
   */
  call: (name: string, args: unknown, signal: AbortSignal) => Promise<unknown>;
  limits?: ScriptLimits;
  /** Ends the run (the request was cancelled). */
  signal?: AbortSignal;
  /** Pause the deadline while a person is being asked: `hold` returns the function that resumes it. */
  onClock?: (clock: { hold(): () => void }) => void;
}

/**
 * Run a script in a fresh sandbox and return its JSON value and console output.
 *
 * @example
 * ```ts
 * const out = await runScript({
 *   code: 'const r = await tools.notes__search({ q: "x" }); return r.length;',
 *   names: ['notes__search'],
 *   call: async (name, args) => callTheTool(name, args),
 * });
 * out.json; // '3'
 * ```
 */
export async function runScript(options: RunScriptOptions): Promise<ScriptOutcome> {
  const limits: ResolvedLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const module = await loadSandboxEngine();
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const deadline = new Deadline(limits.deadlineMs);
  options.onClock?.(deadline);
  let stop: unknown;
  let cpuUsed = 0;
  let sliceStart = performance.now();
  runtime.setInterruptHandler(() => {
    if (stop !== undefined) return true;
    if (cpuUsed + (performance.now() - sliceStart) > limits.cpuMs) {
      stop = new ScriptError('cpu', `The script ran past its CPU limit (${limits.cpuMs} ms of its own code).`);
      return true;
    }
    if (deadline.expired()) {
      stop = deadlineError(limits);
      return true;
    }
    return false;
  });
  const inside = <T>(work: () => T): T => {
    sliceStart = performance.now();
    try {
      return work();
    } finally {
      cpuUsed += performance.now() - sliceStart;
    }
  };
  const context = runtime.newContext();
  const pending = new Set<QuickJSDeferredPromise>();
  const ended = new AbortController();
  // Each call in flight listens for the end of the run: as many as the calls a run may make.
  setMaxListeners(limits.maxCalls + 10, ended.signal);
  let wake: () => void = () => {};
  const logs: string[] = [];
  let outputUsed = 0;
  let calls = 0;
  const handles: QuickJSHandle[] = [];
  const keep = (handle: QuickJSHandle) => {
    handles.push(handle);
    return handle;
  };
  const onAbort = () => {
    stop ??= new ScriptError('stopped', 'The script was stopped: the request was cancelled.');
    wake();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  // A trap inside the WebAssembly (not an exception of the script's) leaves the runtime unusable.
  let trapped = false;
  try {
    const call = keep(
      context.newFunction('call', (nameHandle, argsHandle) => {
        const name = context.getString(nameHandle);
        const argsJson = context.getString(argsHandle);
        const deferred = context.newPromise();
        pending.add(deferred);
        const settle = (fill: () => QuickJSHandle, ok: boolean) => {
          pending.delete(deferred);
          if (!deferred.alive) return;
          const value = fill();
          if (ok) deferred.resolve(value);
          else deferred.reject(value);
          value.dispose();
          deferred.dispose();
          wake();
        };
        const work =
          ++calls > limits.maxCalls
            ? Promise.reject(new Error(`at most ${limits.maxCalls} tool calls per script`))
            : Promise.resolve().then(() => options.call(name, JSON.parse(argsJson), ended.signal));
        work.then(
          (value) => settle(() => context.newString(JSON.stringify(value ?? null)), true),
          (error: unknown) => {
            if (error instanceof HaltScript) {
              // Left pending: the run ends here and frees it with the others.
              stop ??= error.error;
              wake();
              return;
            }
            const message = error instanceof Error ? error.message : String(error);
            settle(() => context.newError({ name: 'ToolCallError', message }), false);
          },
        );
        return deferred.handle;
      }),
    );
    const print = keep(
      context.newFunction('print', (levelHandle, textHandle) => {
        const text = `${context.getString(levelHandle) === 'error' ? '[error] ' : ''}${context.getString(textHandle)}`;
        outputUsed += Buffer.byteLength(text) + 1;
        if (outputUsed > limits.outputBytes) {
          stop ??= outputError(limits);
          return undefined;
        }
        logs.push(text);
        return undefined;
      }),
    );
    const prelude = keep(context.unwrapResult(inside(() => context.evalCode(PRELUDE, 'prelude.js'))));
    const names = keep(context.newString(JSON.stringify(options.names)));
    const start = keep(
      context.unwrapResult(inside(() => context.callFunction(prelude, context.undefined, call, print, names))),
    );
    // The script is parsed here (a syntax error ends the run before any call) but not yet run.
    // Wrapped on its own first line, so the script's line numbers are the file's.
    const parsed = inside(() => context.evalCode(`(async () => {${options.code}\n})`, FILE));
    if (parsed.error) throw scriptFailure(context, parsed.error, stop, 'syntax');
    const script = keep(parsed.value);
    const started = inside(() => context.callFunction(start, context.undefined, script));
    if (started.error) throw scriptFailure(context, started.error, stop, 'threw');
    const promise = keep(started.value);
    for (;;) {
      const jobs = inside(() => runtime.executePendingJobs());
      // A job that failed outside the script's promise chain is a limit that stopped it (or nothing).
      if (jobs.error) jobs.error.dispose();
      if (stop !== undefined) throw stop;
      const state = context.getPromiseState(promise);
      if (state.type === 'fulfilled') {
        const json = state.value.consume((value) =>
          context.typeof(value) === 'string' ? context.getString(value) : undefined,
        );
        if (json !== undefined && Buffer.byteLength(json) + outputUsed > limits.outputBytes) throw outputError(limits);
        return { json, logs };
      }
      if (state.type === 'rejected') throw scriptFailure(context, state.error, stop, 'threw');
      if (pending.size === 0) {
        throw new ScriptError(
          'stalled',
          'The script awaits something that never settles (only tool calls settle here: there are no timers).',
        );
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        deadline.onExpiry(() => {
          stop ??= deadlineError(limits);
          resolve();
        });
      });
      deadline.onExpiry(undefined);
    }
  } catch (error) {
    if (error instanceof ScriptError || !(error instanceof Error) || isCandorError(error)) throw error;
    trapped = true;
    throw new ScriptError('memory', `The script stopped the interpreter (${error.message}).`, { cause: error });
  } finally {
    ended.abort();
    deadline.onExpiry(undefined);
    options.signal?.removeEventListener('abort', onAbort);
    for (const deferred of pending) deferred.dispose();
    for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
    // A runtime that trapped, or that cannot be freed cleanly, leaves the module in doubt: the next run loads a new one.
    if (trapped) engine = undefined;
    else {
      try {
        context.dispose();
        runtime.dispose();
      } catch {
        engine = undefined;
      }
    }
  }
}

/** The run's wall clock, which stands still while a person is asked. */
class Deadline {
  #end: number;
  #held = 0;
  #heldSince = 0;
  #timer: NodeJS.Timeout | undefined;
  #listener: (() => void) | undefined;

  constructor(ms: number) {
    this.#end = performance.now() + ms;
  }

  expired(): boolean {
    return this.#held === 0 && performance.now() > this.#end;
  }

  hold(): () => void {
    if (this.#held++ === 0) this.#heldSince = performance.now();
    this.#arm();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#held === 0) this.#end += performance.now() - this.#heldSince;
      this.#arm();
    };
  }

  /** Call `listener` once the deadline passes (undefined: stop waiting). */
  onExpiry(listener: (() => void) | undefined): void {
    this.#listener = listener;
    this.#arm();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#listener === undefined || this.#held > 0) return;
    const listener = this.#listener;
    this.#timer = setTimeout(
      () => {
        if (this.expired()) listener();
        else this.#arm();
      },
      Math.max(0, this.#end - performance.now()) + 1,
    );
  }
}

function deadlineError(limits: ResolvedLimits): ScriptError {
  return new ScriptError('deadline', `The script ran past its deadline (${limits.deadlineMs} ms).`);
}

function outputError(limits: ResolvedLimits): ScriptError {
  return new ScriptError(
    'output',
    `The script's output (its returned value as JSON and its console lines) is over ${limits.outputBytes} bytes; return less (filter or summarise in the script).`,
  );
}

/** The error a failed evaluation becomes: the limit that stopped it, else what the script threw. */
function scriptFailure(
  context: QuickJSContext,
  handle: QuickJSHandle,
  stop: unknown,
  kind: 'syntax' | 'threw',
): unknown {
  const thrown = handle.consume((h) => context.dump(h)) as unknown;
  if (stop !== undefined) return stop;
  const { name, message, stack } = describeThrown(thrown);
  // QuickJS throws null when it runs out of memory while making the error itself; a script
  // that throws null on purpose reads the same, which the message says.
  if (thrown === null && kind === 'threw')
    return new ScriptError(
      'memory',
      'The script ran out of memory (past its memory limit, so not even an error could be made; a script that throws null itself ends the same way).',
    );
  if (name === 'InternalError' && /out of memory/i.test(message))
    return new ScriptError('memory', 'The script ran out of memory (past its memory limit).');
  if (/stack overflow/i.test(message))
    return new ScriptError('memory', 'The script ran out of stack (recursion too deep).');
  const line = lineOf(stack);
  const where = line === undefined ? '' : ` (script line ${line})`;
  return new ScriptError(
    kind === 'syntax' || name === 'SyntaxError' ? 'syntax' : 'threw',
    `${name}: ${message}${where}`,
    {
      ...(line === undefined ? {} : { line }),
    },
  );
}

function describeThrown(thrown: unknown): { name: string; message: string; stack: string } {
  if (typeof thrown === 'object' && thrown !== null) {
    const { name, message, stack } = thrown as { name?: unknown; message?: unknown; stack?: unknown };
    return {
      name: typeof name === 'string' ? name.slice(0, 100) : 'Error',
      message: typeof message === 'string' ? message.slice(0, 2_000) : cut(JSON.stringify(thrown)),
      stack: typeof stack === 'string' ? stack.slice(0, 4_000) : '',
    };
  }
  return { name: 'Error', message: cut(String(thrown)), stack: '' };
}

function cut(text: string | undefined): string {
  const value = text ?? 'undefined';
  return value.length > 2_000 ? `${value.slice(0, 1_997)}…` : value;
}

/** The first frame of the script's own file in a QuickJS stack (`at f (script.js:3:7)`). */
function lineOf(stack: string): number | undefined {
  const at = stack.indexOf(`${FILE}:`);
  if (at < 0) return undefined;
  const line = Number.parseInt(stack.slice(at + FILE.length + 1, at + FILE.length + 12), 10);
  return Number.isFinite(line) ? line : undefined;
}
