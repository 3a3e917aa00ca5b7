/**
 * candor: MCP tools whose annotations tell the truth.
 * Curated named exports only (no `export *`); Node-only parts live at subpath exports.
 */

// Authorization: the HTTP endpoint as an OAuth 2.1 resource server
export type { BearerChallenge } from './auth/challenge.js';
export { bearerChallenge } from './auth/challenge.js';
export { ASYMMETRIC_ALGORITHMS } from './auth/jwt-verifier.js';
export type { ProtectedResourceMetadata } from './auth/resource-metadata.js';
export { metadataUrl } from './auth/resource-metadata.js';
export type { ResourceServer, ResourceServerOptions } from './auth/resource-server.js';
export { createResourceServer } from './auth/resource-server.js';
export { DEFAULT_SCOPE_NAMES, ToolScopePolicy } from './auth/tool-scopes.js';
export type { AuthOptions, IntrospectionResponse, ScopeNames, ToolScopes, VerifiedToken } from './auth/types.js';
// The engine: server, dispatcher, pipeline, resources, prompts
export type {
  Channel,
  JsonRpcErrorResponse,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResult,
  RequestInfo,
} from './engine/channel.js';
export { createDispatcher, Dispatcher } from './engine/dispatcher.js';
export type { DispatchContext, DispatcherOptions, DrainOptions } from './engine/dispatcher-options.js';
export type { ServerCapabilities, ServerInfo } from './engine/engine.js';
export type { ProtocolVersion } from './engine/era.js';
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './engine/era.js';
export { classify, parseError, RawJson, serializeMessage } from './engine/jsonrpc.js';
// The 2026-07-28 era on the same engine
export type { CacheHintOptions, CacheOptions } from './engine/modern/cache-hints.js';
export { InputRequiredError } from './engine/modern/call-context.js';
export type { ChangeEvent, ChangeSource } from './engine/modern/change-source.js';
export { InProcessChangeSource, publishRegistryChanges } from './engine/modern/change-source.js';
export type { EraRoute } from './engine/modern/classify.js';
export { classifyEra } from './engine/modern/classify.js';
export type { ModernOptions } from './engine/modern/modern-engine.js';
export { httpStatusOf, MODERN_PROTOCOL_VERSIONS } from './engine/modern/protocol.js';
export type { RequestStateOptions } from './engine/modern/request-state.js';
export type { SubscriptionOptions } from './engine/modern/subscriptions.js';
export type { ClientCapabilities, ClientInfo, PeerOptions } from './engine/peer.js';
export { Peer } from './engine/peer.js';
export { MemoryTaskStore } from './engine/tasks/memory-task-store.js';
export type { TasksOptions } from './engine/tasks/task-runtime.js';
export { TaskCancelledError } from './engine/tasks/task-runtime.js';
export type {
  TaskFinish,
  TaskOutcome,
  TaskPage,
  TaskRecord,
  TaskSettledListener,
  TaskStatus,
  TaskStore,
} from './engine/tasks/task-store.js';
export { isTerminalStatus } from './engine/tasks/task-store.js';
// Errors
export type { CandorErrorCode, ToolErrorCode } from './errors.js';
export {
  CandorError,
  DefinitionError,
  isCandorError,
  isDefinitionError,
  isProtocolError,
  isToolError,
  ProtocolError,
  ToolError,
} from './errors.js';
// Lint (pure: the rules over a tools/list manifest; the runner and reporters are in src/lint/index.ts)
export { lint, validateLintConfig } from './lint/lint.js';
export { PROFILES, profileSettings } from './lint/profiles.js';
export { RULES } from './lint/rules/index.js';
export type {
  Finding,
  LintConfig,
  LintIgnore,
  LintOptions,
  LintResult,
  LintRule,
  ProfileName,
  RuleSetting,
  Severity,
  SuppressedFinding,
} from './lint/types.js';
export { compose } from './pipeline/compose.js';
export type { AuditEvent, AuditOptions } from './pipeline/middleware/audit.js';
export { audit, summariseArgs } from './pipeline/middleware/audit.js';
export type { AvailabilityOptions } from './pipeline/middleware/availability.js';
export { availability } from './pipeline/middleware/availability.js';
export type { ConfirmDestructiveOptions } from './pipeline/middleware/confirm-destructive.js';
export { confirmDestructive } from './pipeline/middleware/confirm-destructive.js';
export type { RateLimiterSpec, RateLimitOptions } from './pipeline/middleware/rate-limit.js';
export { rateLimit } from './pipeline/middleware/rate-limit.js';
export type { TimeoutOptions } from './pipeline/middleware/timeout.js';
export { ToolTimeoutError, timeout } from './pipeline/middleware/timeout.js';
export { validateInput } from './pipeline/middleware/validate-input.js';
export type { PipelineOptions } from './pipeline/pipeline.js';
export { createToolPipeline } from './pipeline/pipeline.js';
export { toolErrorResult } from './pipeline/result.js';
export type { CallContext, Middleware, Next, ToolSource } from './pipeline/types.js';
export type { PromptConfig } from './prompts/define.js';
export { definePrompt } from './prompts/define.js';
export { PromptRegistry } from './prompts/registry.js';
export type {
  GetPromptResult,
  PromptArgument,
  PromptContext,
  PromptDefinition,
  PromptMessage,
  PromptReturn,
  WirePrompt,
} from './prompts/types.js';
export { disableVariable } from './registry/env.js';
export type { ManifestPage } from './registry/manifest.js';
// Registry
export type {
  ChangeReason,
  RegistryEvents,
  SearchPage,
  ToolRegistryOptions,
  ToolSelector,
} from './registry/registry.js';
export { ToolRegistry } from './registry/registry.js';
export type { SearchQuery } from './registry/search.js';
export type { ResourceConfig, ResourceTemplateConfig } from './resources/define.js';
export { defineResource, defineResourceTemplate } from './resources/define.js';
export type { PageOptions, ResourceRegistryOptions } from './resources/registry.js';
export { RESOURCE_NOT_FOUND, ResourceRegistry } from './resources/registry.js';
export type {
  Completer,
  Icon,
  ReadReturn,
  ResourceAnnotations,
  ResourceContents,
  ResourceContext,
  ResourceDefinition,
  ResourceTemplateDefinition,
  TemplateContext,
  WireResource,
  WireResourceTemplate,
} from './resources/types.js';
export { MCP_APP_MIME_TYPE } from './resources/types.js';
export type { TemplateVariables } from './resources/uri-template.js';
export type {
  CandorServer,
  ServerHttpOptions,
  ServerListenOptions,
  ServerOptions,
  ServerStdioOptions,
} from './server/create-server.js';
export { createServer } from './server/create-server.js';
export type { RedisTaskStoreOptions } from './stores/redis-task-store.js';
export { createRedisTaskStore, RedisTaskStore } from './stores/redis-task-store.js';
// The tool model
export type { ArgsOf, ToolConfig, ToolLike } from './tool/define.js';
export { BaseTool, defineTool, toToolDefinition } from './tool/define.js';
export { effectFromHints, hintsFromEffects, SPEC_DEFAULT_HINTS } from './tool/effects.js';
export type { EffectExplanation, InferenceBasis, OpenWorldCue, VerbFamily } from './tool/infer.js';
export { explainEffects, inferEffects } from './tool/infer.js';
export { TOOL_NAME_PATTERN } from './tool/name.js';
export type { SchemaInput } from './tool/schema.js';
export { EMPTY_INPUT_SCHEMA, formatIssues } from './tool/schema.js';
export { deriveTitle, splitWords } from './tool/title.js';
export type {
  AskOptions,
  AuthInfo,
  CallToolResult,
  CompiledSchema,
  ContentBlock,
  Declaration,
  Effect,
  ElicitParams,
  ElicitResult,
  HandlerReturn,
  HintName,
  HintSource,
  HttpInfo,
  Inference,
  JsonSchema,
  LogLevel,
  RateLimit,
  ResolvedHints,
  SampleParams,
  SampleResult,
  TaskSupport,
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolHandler,
  ToolUi,
  ValidationIssue,
  ValidationResult,
  WireTool,
  World,
} from './tool/types.js';
export type { CandorToolMeta } from './tool/wire.js';
export { CANDOR_META_KEY } from './tool/wire.js';
export type { Admission, HttpAuthorizer, HttpRefusal, WellKnownDocument } from './transports/http/authorizer.js';
// Streamable HTTP
export type { FetchHandlerExtra, HttpHandler } from './transports/http/create-http-handler.js';
export { createHttpHandler } from './transports/http/create-http-handler.js';
export type { EventStore, InMemoryEventStoreOptions, ReplaySink } from './transports/http/event-store.js';
export { InMemoryEventStore } from './transports/http/event-store.js';
export type { HttpRequestInfo } from './transports/http/exchange.js';
export type { HttpCloseOptions, HttpHandlerOptions } from './transports/http/handler-options.js';
export type { HttpRateLimiterSpec, HttpRateLimitOptions } from './transports/http/http-rate-limit.js';
export type { HttpListener, HttpListenOptions } from './transports/http/listen.js';
export { listenHttp } from './transports/http/listen.js';
export type { MemoryClientTransport, MemoryTransportOptions } from './transports/memory.js';
export { connectMemory } from './transports/memory.js';
export type { ServerLogger, StderrLoggerOptions } from './util/logger.js';
export { silentLogger, stderrLogger } from './util/logger.js';
