/**
 * Taint: untrusted content cannot silently drive an action. Injected instructions are
 * never all found, so the host also tracks where a session's content came from. A
 * result from a tool that reaches an open world, or from a server whose word is not
 * trusted, taints the session; a later call that is destructive, or that sends data
 * out (open world and not read-only), is then put to a person, naming the earlier
 * result, however the policy would have let it run (a rule, a remembered answer,
 * trusted hints). This reads the tools' honest hints directly: the hint that says a
 * tool reaches the open world is also the one that says its output is outside input.
 *
 * Everything here is a plain function of a session's state and a call, so the host's
 * call path, the gateway and code mode share one rule.
 */
import { CandorError } from '../errors.js';
import type { CallToolResult } from '../tool/types.js';
import type {
  CatalogTool,
  PolicyPreset,
  TaintLabel,
  TaintMode,
  TaintSession,
  TaintSource,
  TaintState,
} from './types.js';

/** The taint settings, for validation and docs. */
export const TAINT_MODES: readonly TaintMode[] = ['ask', 'deny', 'off'];

/** The experimental trust-annotations extension's `_meta` key, read on results to carry their labels on. */
export const TRUST_ANNOTATIONS_KEY = 'io.modelcontextprotocol/trust-annotations';

/** An untainted session's state. */
export const UNTAINTED: TaintState = Object.freeze({ sources: Object.freeze([]) as readonly TaintSource[] });

/** Sources kept per session (the most recent): enough to name them, bounded whatever the session's length. */
const MAX_SOURCES = 8;

/**
 * A new, untainted session: pass it as `RunOptions.taint` to keep one conversation's
 * taint apart from another's on a shared host.
 *
 * @example
 * ```ts
 * const session = createTaintSession();
 * await host.run(calls, { taint: session });
 * session.state.sources; // the results that tainted it
 * ```
 */
export function createTaintSession(): TaintSession {
  return { state: UNTAINTED };
}

/**
 * The labels a result brings into a session: `open-world` when its tool reaches an open
 * world, `untrusted` when its server is not trusted or the result is labelled untrusted
 * (trust-annotations `untrusted: true`, e.g. by a candor gateway in front of it).
 *
 * @example
 * ```ts
 * resultLabels(host.tool('web__fetch')!, result); // ['open-world', 'untrusted']
 * ```
 */
export function resultLabels(tool: CatalogTool, result?: CallToolResult): TaintLabel[] {
  const labels: TaintLabel[] = [];
  if (tool.hints.openWorldHint) labels.push('open-world');
  const annotated = result?._meta?.[TRUST_ANNOTATIONS_KEY] as { untrusted?: unknown } | undefined;
  if (tool.trust !== 'trusted' || annotated?.untrusted === true) labels.push('untrusted');
  return labels;
}

/**
 * The state after a source entered the session (the same state when it adds nothing).
 * A tool seen before moves to the end with its labels merged.
 *
 * @example
 * ```ts
 * session.state = withSource(session.state, { tool: 'web__fetch', server: 'web', labels: ['open-world'] });
 * ```
 */
export function withSource(state: TaintState, source: TaintSource): TaintState {
  if (source.labels.length === 0) return state;
  const earlier = state.sources.find((s) => s.tool === source.tool && s.server === source.server);
  if (earlier && source.labels.every((label) => earlier.labels.includes(label))) {
    if (state.sources[state.sources.length - 1] === earlier) return state;
  }
  const labels = [...new Set([...(earlier?.labels ?? []), ...source.labels])].sort() as TaintLabel[];
  const rest = state.sources.filter((s) => s !== earlier);
  return { sources: [...rest, { tool: source.tool, server: source.server, labels }].slice(-MAX_SOURCES) };
}

/**
 * The state after a tool's result entered the session.
 *
 * @example
 * ```ts
 * session.state = afterResult(session.state, tool, outcome.result);
 * ```
 */
export function afterResult(state: TaintState, tool: CatalogTool, result?: CallToolResult): TaintState {
  return withSource(state, { tool: tool.name, server: tool.server, labels: resultLabels(tool, result) });
}

/** What taint says about one call: nothing (undefined), or ask / deny with the reason. */
export interface TaintVerdict {
  decision: 'ask' | 'deny';
  reason: string;
  /** The earlier results behind it, most recent last. */
  sources: TaintSource[];
}

/**
 * Whether taint stops a call: only in a tainted session, only for a call that is
 * destructive or sends data out (open world and not read-only). `readOnly` is the
 * call's own (a command-gated tool's command may read even when the tool can write).
 *
 * @example
 * ```ts
 * taintVerdict(session.state, { tool: host.tool('mail__send')!, readOnly: false }, 'ask');
 * // { decision: 'ask', reason: 'This session holds untrusted content: …', sources: [...] }
 * ```
 */
export function taintVerdict(
  state: TaintState,
  call: { tool: CatalogTool; readOnly: boolean },
  mode: TaintMode,
): TaintVerdict | undefined {
  if (mode === 'off' || state.sources.length === 0 || call.readOnly) return undefined;
  const { hints } = call.tool;
  const destructive = hints.destructiveHint;
  const sends = hints.openWorldHint;
  if (!destructive && !sends) return undefined;
  const what = destructive
    ? sends
      ? 'may destroy data and reaches an open world'
      : 'may destroy data'
    : 'can send data out (it reaches an open world and is not read-only)';
  const reason =
    `this session holds untrusted content (${describeSources(state.sources)}), and ${call.tool.name} ${what}: ` +
    `instructions hidden in that content must not drive it unseen.`;
  return { decision: mode, reason, sources: state.sources.map((s) => ({ ...s, labels: [...s.labels] })) };
}

/**
 * The taint mode a host runs with: the one given, else `ask`, except under the `yolo`
 * preset (whose point is no prompts), where it is `off` unless asked for.
 *
 * @example
 * ```ts
 * taintModeOf(undefined, 'default'); // 'ask'
 * taintModeOf(undefined, 'yolo'); // 'off'
 * ```
 */
export function taintModeOf(mode: unknown, preset: PolicyPreset): TaintMode {
  if (mode === undefined) return preset === 'yolo' ? 'off' : 'ask';
  if (!(TAINT_MODES as readonly unknown[]).includes(mode))
    throw new CandorError(
      `Unknown taint setting ${JSON.stringify(mode)}; use one of ${TAINT_MODES.map((m) => `'${m}'`).join(', ')}.`,
      { code: 'invalid_host_options' },
    );
  return mode as TaintMode;
}

/** The sources in words, most recent first: `the result of web__fetch (server web: open-world, untrusted)`. */
export function describeSources(sources: readonly TaintSource[]): string {
  const named = [...sources]
    .reverse()
    .slice(0, 3)
    .map((s) => `the result of ${s.tool} (server ${s.server}: ${s.labels.join(', ')})`);
  const more = sources.length > 3 ? ` and ${sources.length - 3} more` : '';
  return `${named.join('; ')}${more}`;
}
