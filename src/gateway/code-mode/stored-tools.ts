/**
 * A stored script as a tool of a code-mode endpoint: its hints derived from the tools
 * it calls there (host/code-mode/script-effects.ts), its description saying what it
 * calls and how its hints were found, and a pin over its definition and the pins of
 * the tools it calls, so a tool underneath that changes changes the script's pin and
 * hints (and the endpoint's list, which clients are told of). Calling it runs the
 * script through `run_script`'s path, offered only the tools its hints were derived
 * from (every tool here when its calls could not be read).
 */
import { createHash } from 'node:crypto';
import { scriptEffects } from '../../host/code-mode/script-effects.js';
import { effectText } from '../../host/code-mode/typed-api.js';
import { canonicalJson } from '../../host/pins/canonical-json.js';
import { pinnedDefinition } from '../../host/pins/pin-hash.js';
import type { ToolSource } from '../../pipeline/types.js';
import { defineTool } from '../../tool/define.js';
import type { CallToolResult, ToolContext, ToolDefinition } from '../../tool/types.js';
import { GATEWAY_META_KEY } from '../proxy-tool.js';
import type { StoredScript } from './script-store.js';

/** What `_meta["dev.candor/gateway"]` holds for a stored script. */
export interface StoredScriptMeta {
  storedScript: {
    name: string;
    savedBy: StoredScript['savedBy'];
    /** The tools it calls, each with its pin now. */
    calls: Array<{ tool: string; pin: string }>;
    /** Names it uses that no tool here has. */
    missing: string[];
    /** Its calls could not be read from its text: its hints are the worst case. */
    dynamic: boolean;
  };
  /**
   * `sha256:` over its pinned definition and the pins of the tools it calls (a proxied
   * tool's `pin` here is its lockfile status; a stored script is pinned by this hash).
   */
  pinHash: string;
}

/** What building a stored tool needs from its endpoint. */
export interface StoredToolContext {
  /** The tools its script may call on this endpoint. */
  base: ToolSource;
  /** Their names (the gateway's own tools left out). */
  names: readonly string[];
  /** A tool's pin: the host catalog's hash of its definition. */
  pinOf: (tool: ToolDefinition) => string;
  /** Run the script offered `names`, as `run_script` would. */
  run: (code: string, names: readonly string[], ctx: ToolContext) => Promise<CallToolResult>;
}

/**
 * The tool a stored script is listed as on one endpoint.
 *
 * @example
 * ```ts
 * const tool = storedTool(store.get('stale')!, { base, names, pinOf, run });
 * tool.wire.annotations; // the union of the hints of the tools it calls
 * ```
 */
export function storedTool(script: StoredScript, context: StoredToolContext): ToolDefinition {
  const offered = new Set(context.names);
  const effects = scriptEffects(script.code, (name) => (offered.has(name) ? context.base.get(name)?.hints : undefined));
  const runs = effects.dynamic ? context.names : effects.calls.map((c) => c.tool);
  const calls = effects.calls.map((c) => ({ tool: c.tool, pin: context.pinOf(context.base.get(c.tool)!) }));
  const lines = [
    script.description,
    '',
    `Stored script (saved by ${script.savedBy === 'model' ? 'the model' : 'a person'}); it runs like run_script, and a call the gateway would ask about pauses it and asks once.`,
  ];
  if (effects.dynamic) {
    lines.push(
      'It reaches tools by computed names, so what it calls cannot be read from its text: it is listed as the most dangerous it could be (destructive, open world, not idempotent), and it may call any tool here.',
    );
  } else if (effects.calls.length === 0) {
    lines.push('It calls no tool.');
  } else {
    lines.push(
      `It calls ${effects.calls.map((c) => `${c.tool} [${effectText(c.hints)}]`).join(', ')}; its hints are derived from those (read-only only if every call is).`,
    );
  }
  if (effects.missing.length > 0)
    lines.push(`It names tools not offered here (${effects.missing.join(', ')}): calls to them fail.`);
  const title = `Stored script ${script.name}`;
  const shown = {
    name: script.name,
    title,
    description: lines.join('\n'),
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { title, ...effects.hints },
  };
  const pin = `sha256:${createHash('sha256')
    .update(canonicalJson({ definition: pinnedDefinition(shown), calls }))
    .digest('hex')}`;
  const meta: StoredScriptMeta = {
    storedScript: {
      name: script.name,
      savedBy: script.savedBy,
      calls,
      missing: effects.missing,
      dynamic: effects.dynamic,
    },
    pinHash: pin,
  };
  return defineTool({
    name: shown.name,
    title,
    description: shown.description,
    input: shown.inputSchema,
    annotations: shown.annotations,
    meta: { [GATEWAY_META_KEY]: meta },
    handler: (_args: unknown, ctx: ToolContext) => context.run(script.code, runs, ctx),
  }) as unknown as ToolDefinition;
}
