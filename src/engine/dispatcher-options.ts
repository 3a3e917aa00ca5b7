/**
 * What a dispatcher is made with, what a transport hands it with each message,
 * and how it drains. Types only.
 */
import type { PipelineOptions } from '../pipeline/pipeline.js';
import type { ToolSource } from '../pipeline/types.js';
import type { PromptRegistry } from '../prompts/registry.js';
import type { ResourceRegistry } from '../resources/registry.js';
import type { ServerLogger } from '../util/logger.js';
import type { Channel, RequestInfo } from './channel.js';
import type { ServerCapabilities, ServerInfo, ToolScope } from './engine.js';
import type { EraRoute } from './modern/classify.js';
import type { HeaderMap } from './modern/header-value.js';
import type { ModernOptions } from './modern/modern-engine.js';
import type { Peer } from './peer.js';
import type { TasksOptions } from './tasks/task-runtime.js';

/** Per-message context a transport passes to `handle`. */
export interface DispatchContext {
  /** The client this message came from. */
  peer: Peer;
  /** Where messages related to this request go before its answer. */
  channel: Channel;
  /** Auth, HTTP details, disconnect signal. */
  info?: RequestInfo;
  /**
   * The HTTP request headers (Streamable HTTP only; absent on stdio). The
   * 2026-07-28 era checks `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and
   * `Mcp-Param-*` against the body. A refusal comes back with its
   * HTTP status: read it with `httpStatusOf(answer)`.
   */
  headers?: HeaderMap;
  /** The era route, when the transport already classified the message with `classifyEra` (not classified twice). */
  route?: EraRoute;
}

/** Options of {@link createDispatcher}. `createServer` fills them from its own options. */
export interface DispatcherOptions extends PipelineOptions {
  serverInfo: ServerInfo;
  instructions?: string;
  tools: ToolSource;
  resources?: ResourceRegistry;
  prompts?: PromptRegistry;
  logger?: ServerLogger;
  /** Most entries accepted in one 2025-03-26 batch. Default 32. */
  maxBatchSize?: number;
  /** Extra capabilities merged into the advertised ones (e.g. `extensions`). */
  capabilities?: ServerCapabilities;
  /** The 2026-07-28 era: requestState sealing, caching hints, subscriptions (see docs/modern-era.md). */
  modern?: ModernOptions;
  /** Serve MCP tasks (both eras) with these options; absent: calls never become tasks. */
  tasks?: TasksOptions;
  /** Narrow the tools per request (per session, per person): see {@link ToolScope}. */
  toolScope?: ToolScope;
}

/** Options of {@link Dispatcher.drain}. */
export interface DrainOptions {
  /** After this long, running calls are aborted. Default 10 s. */
  timeoutMs?: number;
}
