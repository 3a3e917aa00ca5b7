/**
 * candor: MCP tools whose annotations tell the truth.
 * Curated named exports only (no `export *`); Node-only parts live at subpath exports.
 */
import type {
  Channel as ProtocolChannel,
  JsonRpcErrorResponse as ProtocolJsonRpcErrorResponse,
  JsonRpcId as ProtocolJsonRpcId,
  JsonRpcMessage as ProtocolJsonRpcMessage,
  JsonRpcNotification as ProtocolJsonRpcNotification,
  JsonRpcRequest as ProtocolJsonRpcRequest,
  JsonRpcResponse as ProtocolJsonRpcResponse,
  JsonRpcResult as ProtocolJsonRpcResult,
  RequestInfo as ProtocolRequestInfo,
} from './engine/channel.js';
import { createDispatcher as ProtocolcreateDispatcher, Dispatcher as ProtocolDispatcher } from './engine/dispatcher.js';
import type {
  DispatchContext as ProtocolDispatchContext,
  DispatcherOptions as ProtocolDispatcherOptions,
  DrainOptions as ProtocolDrainOptions,
} from './engine/dispatcher-options.js';
import type { ProtocolVersion as ProtocolProtocolVersion } from './engine/era.js';
import {
  LATEST_PROTOCOL_VERSION as ProtocolLATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS as ProtocolSUPPORTED_PROTOCOL_VERSIONS,
} from './engine/era.js';
import {
  classify as Protocolclassify,
  parseError as ProtocolparseError,
  RawJson as ProtocolRawJson,
  serializeMessage as ProtocolserializeMessage,
} from './engine/jsonrpc.js';
import type {
  ChangeEvent as ProtocolChangeEvent,
  ChangeSource as ProtocolChangeSource,
} from './engine/modern/change-source.js';
import {
  InProcessChangeSource as ProtocolInProcessChangeSource,
  publishRegistryChanges as ProtocolpublishRegistryChanges,
} from './engine/modern/change-source.js';
import type { EraRoute as ProtocolEraRoute } from './engine/modern/classify.js';
import { classifyEra as ProtocolclassifyEra } from './engine/modern/classify.js';
import {
  httpStatusOf as ProtocolhttpStatusOf,
  MODERN_PROTOCOL_VERSIONS as ProtocolMODERN_PROTOCOL_VERSIONS,
} from './engine/modern/protocol.js';
import type { PeerOptions as ProtocolPeerOptions } from './engine/peer.js';
import { Peer as ProtocolPeer } from './engine/peer.js';
import type { PipelineOptions as ProtocolPipelineOptions } from './pipeline/pipeline.js';
import { createToolPipeline as ProtocolcreateToolPipeline } from './pipeline/pipeline.js';
import type {
  Admission as ProtocolAdmission,
  HttpAuthorizer as ProtocolHttpAuthorizer,
  HttpRefusal as ProtocolHttpRefusal,
  WellKnownDocument as ProtocolWellKnownDocument,
} from './transports/http/authorizer.js';
import type {
  FetchHandlerExtra as ProtocolFetchHandlerExtra,
  HttpHandler as ProtocolHttpHandler,
} from './transports/http/create-http-handler.js';
import { createHttpHandler as ProtocolcreateHttpHandler } from './transports/http/create-http-handler.js';
import type {
  InMemoryEventStoreOptions as ProtocolInMemoryEventStoreOptions,
  ReplaySink as ProtocolReplaySink,
} from './transports/http/event-store.js';
import { InMemoryEventStore as ProtocolInMemoryEventStore } from './transports/http/event-store.js';
import type { HttpRequestInfo as ProtocolHttpRequestInfo } from './transports/http/exchange.js';
import type { HttpHandlerOptions as ProtocolHttpHandlerOptions } from './transports/http/handler-options.js';
import type {
  HttpListener as ProtocolHttpListener,
  HttpListenOptions as ProtocolHttpListenOptions,
} from './transports/http/listen.js';
import { listenHttp as ProtocollistenHttp } from './transports/http/listen.js';

// Authorization: the HTTP endpoint as an OAuth 2.1 resource server
export type { BearerChallenge } from './auth/challenge.js';
export { bearerChallenge } from './auth/challenge.js';
export type {
  AcceptedAssertion,
  IdentityAssertionOptions,
  ReplayStore,
  TrustedIdp,
} from './auth/identity-assertion.js';
export {
  ID_JAG_TYP,
  IdentityAssertionError,
  identityAssertionVerifier,
  memoryReplayStore,
} from './auth/identity-assertion.js';
export { ASYMMETRIC_ALGORITHMS } from './auth/jwt-verifier.js';
export type { ProtectedResourceMetadata } from './auth/resource-metadata.js';
export { metadataUrl } from './auth/resource-metadata.js';
export type { ResourceServer, ResourceServerOptions } from './auth/resource-server.js';
export { createResourceServer } from './auth/resource-server.js';
export { DEFAULT_SCOPE_NAMES, ToolScopePolicy } from './auth/tool-scopes.js';
export type { AuthOptions, IntrospectionResponse, ScopeNames, ToolScopes, VerifiedToken } from './auth/types.js';
// The engine: server, dispatcher, pipeline, resources, prompts
export type { ServerCapabilities, ServerInfo } from './engine/engine.js';
// The 2026-07-28 era on the same engine
export type { CacheHintOptions, CacheOptions } from './engine/modern/cache-hints.js';
export { InputRequiredError } from './engine/modern/call-context.js';
export type { ModernOptions } from './engine/modern/modern-engine.js';
export type { RequestStateOptions } from './engine/modern/request-state.js';
export type { SubscriptionOptions } from './engine/modern/subscriptions.js';
export type { ClientCapabilities, ClientInfo } from './engine/peer.js';
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
export { createRedisTaskStore } from './stores/redis-task-store.js';

import { RedisTaskStore as RedisTaskStoreClass } from './stores/redis-task-store.js';
/** A task store on Redis, as `createRedisTaskStore(url)` makes it. */
export type RedisTaskStore = RedisTaskStoreClass;
/** @deprecated Make one with `createRedisTaskStore(url)`; the class stays exported for one release. */
export const RedisTaskStore = RedisTaskStoreClass;
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
// Streamable HTTP
export type { EventStore } from './transports/http/event-store.js';
export type { HttpCloseOptions } from './transports/http/handler-options.js';
export type { HttpRateLimiterSpec, HttpRateLimitOptions } from './transports/http/http-rate-limit.js';
export type { MemoryClientTransport, MemoryTransportOptions } from './transports/memory.js';
export { connectMemory } from './transports/memory.js';
export type { ServerLogger, StderrLoggerOptions } from './util/logger.js';
export { silentLogger, stderrLogger } from './util/logger.js';

// Deprecated root names: moved to `candor/protocol`; they stay here for one release.
/** @deprecated Import `Channel` from `candor/protocol`. */
export type Channel = ProtocolChannel;
/** @deprecated Import `JsonRpcErrorResponse` from `candor/protocol`. */
export type JsonRpcErrorResponse = ProtocolJsonRpcErrorResponse;
/** @deprecated Import `JsonRpcId` from `candor/protocol`. */
export type JsonRpcId = ProtocolJsonRpcId;
/** @deprecated Import `JsonRpcMessage` from `candor/protocol`. */
export type JsonRpcMessage = ProtocolJsonRpcMessage;
/** @deprecated Import `JsonRpcNotification` from `candor/protocol`. */
export type JsonRpcNotification = ProtocolJsonRpcNotification;
/** @deprecated Import `JsonRpcRequest` from `candor/protocol`. */
export type JsonRpcRequest = ProtocolJsonRpcRequest;
/** @deprecated Import `JsonRpcResponse` from `candor/protocol`. */
export type JsonRpcResponse = ProtocolJsonRpcResponse;
/** @deprecated Import `JsonRpcResult` from `candor/protocol`. */
export type JsonRpcResult = ProtocolJsonRpcResult;
/** @deprecated Import `RequestInfo` from `candor/protocol`. */
export type RequestInfo = ProtocolRequestInfo;
/** @deprecated Import `DispatchContext` from `candor/protocol`. */
export type DispatchContext = ProtocolDispatchContext;
/** @deprecated Import `DispatcherOptions` from `candor/protocol`. */
export type DispatcherOptions = ProtocolDispatcherOptions;
/** @deprecated Import `DrainOptions` from `candor/protocol`. */
export type DrainOptions = ProtocolDrainOptions;
/** @deprecated Import `Dispatcher` from `candor/protocol`. */
export const Dispatcher = ProtocolDispatcher;
/** @deprecated Import `Dispatcher` from `candor/protocol`. */
export type Dispatcher = ProtocolDispatcher;
/** @deprecated Import `createDispatcher` from `candor/protocol`. */
export const createDispatcher = ProtocolcreateDispatcher;
/** @deprecated Import `LATEST_PROTOCOL_VERSION` from `candor/protocol`. */
export const LATEST_PROTOCOL_VERSION = ProtocolLATEST_PROTOCOL_VERSION;
/** @deprecated Import `SUPPORTED_PROTOCOL_VERSIONS` from `candor/protocol`. */
export const SUPPORTED_PROTOCOL_VERSIONS = ProtocolSUPPORTED_PROTOCOL_VERSIONS;
/** @deprecated Import `ProtocolVersion` from `candor/protocol`. */
export type ProtocolVersion = ProtocolProtocolVersion;
/** @deprecated Import `RawJson` from `candor/protocol`. */
export const RawJson = ProtocolRawJson;
/** @deprecated Import `RawJson` from `candor/protocol`. */
export type RawJson = ProtocolRawJson;
/** @deprecated Import `classify` from `candor/protocol`. */
export const classify = Protocolclassify;
/** @deprecated Import `parseError` from `candor/protocol`. */
export const parseError = ProtocolparseError;
/** @deprecated Import `serializeMessage` from `candor/protocol`. */
export const serializeMessage = ProtocolserializeMessage;
/** @deprecated Import `InProcessChangeSource` from `candor/protocol`. */
export const InProcessChangeSource = ProtocolInProcessChangeSource;
/** @deprecated Import `InProcessChangeSource` from `candor/protocol`. */
export type InProcessChangeSource = ProtocolInProcessChangeSource;
/** @deprecated Import `publishRegistryChanges` from `candor/protocol`. */
export const publishRegistryChanges = ProtocolpublishRegistryChanges;
/** @deprecated Import `ChangeEvent` from `candor/protocol`. */
export type ChangeEvent = ProtocolChangeEvent;
/** @deprecated Import `ChangeSource` from `candor/protocol`. */
export type ChangeSource = ProtocolChangeSource;
/** @deprecated Import `classifyEra` from `candor/protocol`. */
export const classifyEra = ProtocolclassifyEra;
/** @deprecated Import `EraRoute` from `candor/protocol`. */
export type EraRoute = ProtocolEraRoute;
/** @deprecated Import `MODERN_PROTOCOL_VERSIONS` from `candor/protocol`. */
export const MODERN_PROTOCOL_VERSIONS = ProtocolMODERN_PROTOCOL_VERSIONS;
/** @deprecated Import `httpStatusOf` from `candor/protocol`. */
export const httpStatusOf = ProtocolhttpStatusOf;
/** @deprecated Import `Peer` from `candor/protocol`. */
export const Peer = ProtocolPeer;
/** @deprecated Import `Peer` from `candor/protocol`. */
export type Peer = ProtocolPeer;
/** @deprecated Import `PeerOptions` from `candor/protocol`. */
export type PeerOptions = ProtocolPeerOptions;
/** @deprecated Import `createToolPipeline` from `candor/protocol`. */
export const createToolPipeline = ProtocolcreateToolPipeline;
/** @deprecated Import `PipelineOptions` from `candor/protocol`. */
export type PipelineOptions = ProtocolPipelineOptions;
/** @deprecated Import `Admission` from `candor/protocol`. */
export type Admission = ProtocolAdmission;
/** @deprecated Import `HttpAuthorizer` from `candor/protocol`. */
export type HttpAuthorizer = ProtocolHttpAuthorizer;
/** @deprecated Import `HttpRefusal` from `candor/protocol`. */
export type HttpRefusal = ProtocolHttpRefusal;
/** @deprecated Import `WellKnownDocument` from `candor/protocol`. */
export type WellKnownDocument = ProtocolWellKnownDocument;
/** @deprecated Import `createHttpHandler` from `candor/protocol`. */
export const createHttpHandler = ProtocolcreateHttpHandler;
/** @deprecated Import `FetchHandlerExtra` from `candor/protocol`. */
export type FetchHandlerExtra = ProtocolFetchHandlerExtra;
/** @deprecated Import `HttpHandler` from `candor/protocol`. */
export type HttpHandler = ProtocolHttpHandler;
/** @deprecated Import `InMemoryEventStore` from `candor/protocol`. */
export const InMemoryEventStore = ProtocolInMemoryEventStore;
/** @deprecated Import `InMemoryEventStore` from `candor/protocol`. */
export type InMemoryEventStore = ProtocolInMemoryEventStore;
/** @deprecated Import `InMemoryEventStoreOptions` from `candor/protocol`. */
export type InMemoryEventStoreOptions = ProtocolInMemoryEventStoreOptions;
/** @deprecated Import `ReplaySink` from `candor/protocol`. */
export type ReplaySink = ProtocolReplaySink;
/** @deprecated Import `HttpRequestInfo` from `candor/protocol`. */
export type HttpRequestInfo = ProtocolHttpRequestInfo;
/** @deprecated Import `HttpHandlerOptions` from `candor/protocol`. */
export type HttpHandlerOptions = ProtocolHttpHandlerOptions;
/** @deprecated Import `listenHttp` from `candor/protocol`. */
export const listenHttp = ProtocollistenHttp;
/** @deprecated Import `HttpListenOptions` from `candor/protocol`. */
export type HttpListenOptions = ProtocolHttpListenOptions;
/** @deprecated Import `HttpListener` from `candor/protocol`. */
export type HttpListener = ProtocolHttpListener;
