/**
 * The shapes lint works with: rules, findings, options and results. Lint reads wire
 * data (what `tools/list` returned), never candor classes, so it audits any server.
 */
import type { ToolAnnotations } from '../tool/types.js';

/** How much a finding matters. `error` fails the run (exit code 1). */
export type Severity = 'error' | 'warning' | 'info';

/** A severity as configured: a level, or `off` to disable the rule. */
export type RuleSetting = Severity | 'off';

/** The profiles a config may choose (see `profiles.ts`). */
export type ProfileName = 'recommended' | 'strict' | 'openai' | 'anthropic';

/** One problem found in a server's manifest. */
export interface Finding {
  ruleId: string;
  severity: Severity;
  /** The tool it is about; absent for server-wide findings. */
  tool?: string;
  /** One line, specific to this tool. */
  message: string;
  /** What to do about it, in words, with the exact annotation where there is one. */
  fix?: string;
  /** The exact annotations to add or change, when the fix is one. */
  patch?: Partial<ToolAnnotations>;
}

/** A finding a config ignore suppressed, with the ignore's reason. */
export interface SuppressedFinding extends Finding {
  reason: string;
}

/** What a rule reports; lint adds the rule id and the configured severity. */
export interface RuleFinding {
  tool?: string;
  message: string;
  fix?: string;
  patch?: Partial<ToolAnnotations>;
  /**
   * `likely` for findings drawn from weaker evidence (a medium-confidence inference, a
   * cue in the description only): reported one level below the rule's severity.
   */
  certainty?: 'firm' | 'likely';
}

/**
 * A tool as lint sees it: the wire object, with its fields read defensively (a
 * third-party server may send anything).
 */
export interface LintTool {
  /** Position in the manifest (for tools without a usable name). */
  index: number;
  name: string;
  /** The raw `tools/list` entry. */
  raw: Record<string, unknown>;
  title?: string;
  description?: string;
  /** The `annotations` object as sent (absent keys stay absent: absent ≠ false). */
  annotations: Record<string, unknown>;
  /** True when the tool sent an `annotations` object at all. */
  hasAnnotations: boolean;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  meta: Record<string, unknown>;
  /** `_meta.ui` (MCP Apps), also read from the legacy flat `_meta["ui/resourceUri"]`. */
  ui?: { resourceUri?: unknown; visibility?: unknown };
  /** Hints a candor server filled from the spec defaults (`_meta["dev.candor/tool"].defaulted`). */
  defaulted: ReadonlySet<string>;
  /** How a candor server says the hints were declared, when it is one. */
  declaration?: string;
}

/** What every rule receives: the whole manifest, so server-wide rules see everything. */
export interface RuleContext {
  tools: readonly LintTool[];
  /** URIs of the server's resources; undefined when not known (then UI-link rules stay quiet). */
  resources?: ReadonlySet<string>;
  /** URI templates of the server's resource templates. */
  resourceTemplates?: readonly string[];
  /**
   * Tool names of the other servers a host already runs, by server (the scan at
   * the gateway's door); undefined when not known (then the shadowing rule stays quiet).
   */
  otherServers?: ReadonlyMap<string, readonly string[]>;
}

/** A lint rule: plain data plus a check. */
export interface LintRule {
  /** Stable kebab-case id, e.g. `hints-missing`. */
  id: string;
  /** Severity in the `recommended` profile; `off` rules run only when a profile or config turns them on. */
  severity: RuleSetting;
  /** One line: what the rule checks. */
  summary: string;
  /** Why it matters: the spec text or host behaviour behind it. */
  explanation: string;
  check(ctx: RuleContext): Iterable<RuleFinding>;
}

/** An eslint-style ignore: which tools (names or globs), which rules, and why (required). */
export interface LintIgnore {
  /** Tool names or picomatch globs; absent = every tool. */
  tools?: string[];
  /** Rule ids; absent = every rule. */
  rules?: string[];
  /** Server label (config entry name) the ignore applies to; absent = every server. */
  server?: string;
  /** Why the finding does not apply. Required: an ignore without a reason is refused. */
  reason: string;
}

/** The `lint` section of `candor.config.json` (or of the `candor` key in package.json). */
export interface LintConfig {
  profile?: ProfileName;
  rules?: Record<string, RuleSetting>;
  ignores?: LintIgnore[];
}

/** Options of {@link lint}. */
export interface LintOptions extends LintConfig {
  /** Resources the server serves (`resources/list`); enables the UI-link checks. */
  resources?: ReadonlyArray<{ uri: string }>;
  /** Resource templates the server serves (`resources/templates/list`). */
  resourceTemplates?: ReadonlyArray<{ uriTemplate: string }>;
  /** The server's label, matched against `ignores[].server`. */
  server?: string;
  /** Other servers' tool names, by server: enables `name-shadows-tool` (see {@link RuleContext}). */
  otherServers?: ReadonlyMap<string, readonly string[]>;
}

/** The outcome of linting one manifest. */
export interface LintResult {
  findings: Finding[];
  suppressed: SuppressedFinding[];
  toolCount: number;
  errorCount: number;
  warningCount: number;
  infoCount: number;
}
