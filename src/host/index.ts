/**
 * `candor/host`: the client side an agent needs. A catalog of tools from many
 * servers, per-server trust, confirmation policies and plan mode, a scheduler
 * that runs read-only calls in parallel, pinned tool definitions, a shell
 * command gate, and exports for model APIs. What candor's own gateway and console
 * use of the host is exported here too (the scan at the door, one server's
 * `ServerConnection`, pin review); only the gateway's routed calls stay internal.
 */

export type {
  ClientCredentials,
  EnterpriseGrantOptions,
  EnterpriseToken,
} from '../auth/client/enterprise-grant.js';
export {
  enterpriseAccessToken,
  redeemIdentityAssertion,
  requestIdentityAssertion,
} from '../auth/client/enterprise-grant.js';
export type { EnterpriseSettings } from '../auth/client/enterprise-settings.js';
export type { IssuedToken, TokenExchangeRequest } from '../auth/client/token-exchange.js';
export { exchangeToken, TOKEN_TYPES, TokenExchangeError } from '../auth/client/token-exchange.js';
export type { NormalisedTool, Visibility, WireToolLike } from '../tool/annotations.js';
export { normaliseTool, REQUIRES_USER_INTERACTION_KEY } from '../tool/annotations.js';
export type { RetryOptions } from './call-failure.js';
export { apiNameFor, DEFAULT_SEPARATOR } from './catalog.js';
export type { HostScriptOptions, ScriptQuestion } from './code-mode/host-script.js';
export { runHostScript } from './code-mode/host-script.js';
export type { ScriptFailure } from './code-mode/script-error.js';
export { ScriptError } from './code-mode/script-error.js';
export type { ApiTool } from './code-mode/typed-api.js';
export { apiDeclarations } from './code-mode/typed-api.js';
export type { PlannedCall, ScriptLimits, ScriptOutcome, ScriptPlan } from './code-mode/types.js';
export type { GateVerdict } from './command-gate/gate.js';
export { checkCommand } from './command-gate/gate.js';
export type { DoorFinding, DoorScan } from './door-scan.js';
export { DOOR_RULES, scanAtTheDoor } from './door-scan.js';
export { createHost } from './host.js';
export type { Host, HostEvents, HostOptions, ServerState } from './host-api.js';
export type { AnthropicTool, ExportOptions, OpenAIChatTool, OpenAIResponsesTool } from './model-tools.js';
export { toAnthropicTools, toOpenAITools } from './model-tools.js';
export type { OverridesFile, ToolOverride } from './overrides.js';
export { Overrides } from './overrides.js';
export { canonicalJson } from './pins/canonical-json.js';
export type { ChangedTool, PinReport, RenamedTool } from './pins/compare.js';
export { comparePins, formatReport, hasDrift } from './pins/compare.js';
export type { FieldChange } from './pins/field-diff.js';
export { diffDefinitions, formatChange } from './pins/field-diff.js';
export type { Lockfile, PinnedTool, ServerPins } from './pins/lockfile.js';
export { emptyLockfile, LOCKFILE_NAME, parseLockfile, pinTools, readLockfile, writeLockfile } from './pins/lockfile.js';
export type { PinnedDefinition } from './pins/pin-hash.js';
export { pinHash, pinnedDefinition } from './pins/pin-hash.js';
export type { PinReview } from './pins/pin-review.js';
export { pinReviewed } from './pins/pin-review.js';
export type { PolicyQuestion, PolicyVerdict } from './policy.js';
export { POLICY_PRESETS, Policy } from './policy.js';
export type { ConnectionStatus, ServerConnectionOptions } from './server-connection.js';
export { ServerConnection } from './server-connection.js';
export type { BatchRunner, StepBatcher, StepBatcherOptions, StepCallOptions } from './step-batcher.js';
export { createStepBatcher } from './step-batcher.js';
export type { TaintVerdict } from './taint.js';
export {
  afterResult,
  createTaintSession,
  describeSources,
  resultLabels,
  TAINT_MODES,
  taintModeOf,
  taintVerdict,
  UNTAINTED,
  withSource,
} from './taint.js';
export type {
  CallApproval,
  CallDecision,
  CallOutcome,
  CallStatus,
  CatalogTool,
  CommandToolConfig,
  ConfirmAnswer,
  ConfirmHandler,
  ConfirmRequest,
  EraChoice,
  HintOrigin,
  PinChangeMode,
  PinState,
  PinStatus,
  PinsConfig,
  PolicyConfig,
  PolicyDecision,
  PolicyPreset,
  PolicyRule,
  RunOptions,
  ServerConfig,
  TaintLabel,
  TaintMode,
  TaintSession,
  TaintSource,
  TaintState,
  ToolCall,
  Trust,
} from './types.js';
