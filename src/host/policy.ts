/**
 * Policy: whether a call runs, asks a person, or is refused. Decided when the
 * call is made (not only when the list is built), from the preset, the rules,
 * the tool's hints and whose word those hints are.
 *
 * The rules the design rests on (spec 2025-11-25, server/tools:
 * "Clients MUST consider tool annotations to be untrusted unless they come
 * from trusted servers"):
 * - an untrusted server's hints (and tags) may only make policy stricter;
 * - deny > ask > allow among matching rules; deny rules hold in every preset;
 * - `_meta["anthropic/requiresUserInteraction"]` always asks;
 * - plan mode lists and runs only read-only tools, and untrusted read-only ones still ask.
 */
import picomatch from 'picomatch';
import { CandorError } from '../errors.js';
import type { GateVerdict } from './command-gate/gate.js';
import type { CatalogTool, PolicyConfig, PolicyDecision, PolicyPreset, PolicyRule } from './types.js';

/** The presets, for validation and docs. */
export const POLICY_PRESETS: readonly PolicyPreset[] = ['default', 'confirm-writes', 'yolo', 'plan'];

/** What the policy says about one call. */
export interface PolicyVerdict {
  decision: PolicyDecision;
  reason: string;
  /** Whether an allow-always answer may be remembered for this tool (against its pin hash). */
  canRemember: boolean;
  /** What decided: one of the user's rules, or the preset. */
  by: 'rule' | 'preset';
}

/** What the policy looks at for one call. */
export interface PolicyQuestion {
  tool: CatalogTool;
  /** For command-gated tools: the gate's verdict on this call's command. */
  command?: GateVerdict;
}

interface CompiledRule {
  rule: PolicyRule;
  tools?: (name: string) => boolean;
  servers?: (name: string) => boolean;
  claims: boolean;
}

/**
 * A compiled policy.
 *
 * @example
 * ```ts
 * const policy = new Policy({ preset: 'default', rules: [{ decision: 'deny', tools: '*__delete_*' }] });
 * policy.decide({ tool }); // { decision: 'ask', reason: '…', canRemember: true }
 * ```
 */
export class Policy {
  readonly preset: PolicyPreset;
  readonly #rules: CompiledRule[];
  readonly #byTool = new WeakMap<CatalogTool, PolicyVerdict>();

  constructor(config: PolicyConfig | PolicyPreset = {}) {
    const { preset = 'default', rules = [] } = typeof config === 'string' ? { preset: config } : config;
    if (!POLICY_PRESETS.includes(preset)) {
      throw new CandorError(
        `Unknown policy preset ${JSON.stringify(preset)}; use one of ${POLICY_PRESETS.map((p) => `'${p}'`).join(', ')}.`,
        { code: 'invalid_policy' },
      );
    }
    this.preset = preset;
    this.#rules = rules.map((rule, index) => compileRule(rule, index));
  }

  /**
   * Whether a tool is offered to the model at all. Plan mode offers only
   * read-only tools (and command-gated tools, which may run read-only
   * commands); tools only deny rules reach are hidden everywhere.
   *
   * @example
   * ```ts
   * new Policy('plan').lists(tool, { commandGated: false }); // tool.hints.readOnlyHint
   * ```
   */
  lists(tool: CatalogTool, options: { commandGated: boolean }): boolean {
    if (this.preset === 'plan' && !tool.hints.readOnlyHint && !options.commandGated) return false;
    // A tool every call of which a rule denies is not worth offering (deny rules apply whatever the trust).
    return !this.#matching(tool).some((r) => r.rule.decision === 'deny');
  }

  /**
   * Decide one call.
   *
   * @example
   * ```ts
   * const verdict = policy.decide({ tool: host.tool('fs__write_file')! });
   * if (verdict.decision === 'ask') console.log(verdict.reason);
   * ```
   */
  decide(question: PolicyQuestion): PolicyVerdict {
    const { tool, command } = question;
    // Without a command the verdict depends only on the tool, whose catalog entry does not
    // change once built (a changed tool is a new entry): decided once per tool.
    if (command === undefined) {
      let known = this.#byTool.get(tool);
      if (known === undefined) {
        known = Object.freeze(this.#decide(tool, undefined));
        this.#byTool.set(tool, known);
      }
      return known;
    }
    return this.#decide(tool, command);
  }

  #decide(tool: CatalogTool, command: GateVerdict | undefined): PolicyVerdict {
    // A gated command that only reads counts as a vouched read: the user said which argument is the command.
    const readOnly = command ? command.decision === 'allow' : tool.hints.readOnlyHint;
    const vouched = command?.decision === 'allow' || tool.trust === 'trusted';
    const destructive = !readOnly && (tool.hints.destructiveHint || !vouched);

    const matched = this.#matching(tool).filter(
      // Hints and tags are the server's word: from an untrusted server they may only tighten.
      (r) => !r.claims || tool.trust === 'trusted' || r.rule.decision !== 'allow',
    );
    const deny = matched.find((r) => r.rule.decision === 'deny');
    if (deny)
      return verdict('deny', deny.rule.reason ?? `denied by policy rule ${describeRule(deny.rule)}`, false, 'rule');

    if (this.preset === 'plan' && !readOnly) {
      const why = command ? `the command is not read-only: ${command.reasons.join('; ')}` : 'the tool is not read-only';
      return verdict('deny', `plan mode runs only read-only tools; ${why}.`, false);
    }
    if (tool.requiresUserInteraction) {
      return verdict('ask', 'the server marks this tool as always requiring user interaction.', false);
    }
    if (this.preset === 'yolo') return verdict('allow', 'yolo preset: no prompts.', true);

    const ask = matched.find((r) => r.rule.decision === 'ask');
    if (ask) return verdict('ask', ask.rule.reason ?? `policy rule ${describeRule(ask.rule)} asks`, true, 'rule');
    if (command && command.decision === 'ask') {
      // Never remembered: "always allow the shell" would allow any later command.
      return verdict('ask', `the command may change something: ${command.reasons.join('; ')}.`, false);
    }
    const allowRule = matched.find((r) => r.rule.decision === 'allow');

    if (readOnly) {
      if (vouched) return verdict('allow', 'read-only tool from a trusted source.', true);
      if (allowRule && this.preset !== 'plan') return verdict('allow', allowReason(allowRule.rule), true, 'rule');
      return verdict(
        'ask',
        `${tool.server} is not trusted, so its read-only hint cannot skip the prompt${this.preset === 'plan' ? ' (plan mode)' : ''}.`,
        true,
      );
    }
    if (this.preset === 'confirm-writes') return verdict('ask', 'confirm-writes: every write is confirmed.', false);
    if (destructive) {
      const why = vouched
        ? 'the tool may be destructive'
        : `the tool may be destructive (${tool.server} is not trusted)`;
      return verdict('ask', `${why}; destructive calls always ask.`, false);
    }
    if (allowRule) return verdict('allow', allowReason(allowRule.rule), true, 'rule');
    return verdict('ask', 'the tool changes something (not read-only).', true);
  }

  #matching(tool: CatalogTool): CompiledRule[] {
    return this.#rules.filter((r) => matches(r, tool));
  }
}

function verdict(
  decision: PolicyDecision,
  reason: string,
  canRemember: boolean,
  by: PolicyVerdict['by'] = 'preset',
): PolicyVerdict {
  return { decision, reason, canRemember, by };
}

function allowReason(rule: PolicyRule): string {
  return rule.reason ?? `allowed by policy rule ${describeRule(rule)}`;
}

function compileRule(rule: PolicyRule, index: number): CompiledRule {
  if (!rule || !['allow', 'ask', 'deny'].includes(rule.decision)) {
    throw new CandorError(
      `Policy rule #${index + 1} needs decision 'allow', 'ask' or 'deny'; got ${JSON.stringify(rule?.decision)}.`,
      { code: 'invalid_policy' },
    );
  }
  const compiled: CompiledRule = { rule, claims: rule.hints !== undefined || rule.tags !== undefined };
  if (rule.tools !== undefined) compiled.tools = picomatch(rule.tools, { dot: true });
  if (rule.servers !== undefined) compiled.servers = picomatch(rule.servers, { dot: true });
  return compiled;
}

function matches(compiled: CompiledRule, tool: CatalogTool): boolean {
  const { rule } = compiled;
  if (compiled.tools && !compiled.tools(tool.name)) return false;
  if (compiled.servers && !compiled.servers(tool.server)) return false;
  if (rule.tags && !rule.tags.some((tag) => tool.tags.includes(tag))) return false;
  if (rule.hints) {
    for (const [hint, value] of Object.entries(rule.hints)) {
      if (tool.hints[hint as keyof typeof tool.hints] !== value) return false;
    }
  }
  return true;
}

/** A rule as text, for reasons: `deny tools=*__delete_*`. */
export function describeRule(rule: PolicyRule): string {
  const parts: string[] = [rule.decision];
  if (rule.tools !== undefined) parts.push(`tools=${[rule.tools].flat().join(',')}`);
  if (rule.servers !== undefined) parts.push(`servers=${[rule.servers].flat().join(',')}`);
  if (rule.tags !== undefined) parts.push(`tags=${rule.tags.join(',')}`);
  if (rule.hints !== undefined) parts.push(`hints=${JSON.stringify(rule.hints)}`);
  return parts.join(' ');
}
