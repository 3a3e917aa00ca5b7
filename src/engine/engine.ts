/**
 * What method handlers share: the server's configuration and long-lived
 * state, built once by the dispatcher. Method handlers are plain functions in
 * a table (src/engine/methods/), so a new era or method is a new entry.
 */

import type { ToolRunner, ToolSource } from '../pipeline/types.js';
import type { PromptRegistry } from '../prompts/registry.js';
import type { ResourceRegistry } from '../resources/registry.js';
import type { ServerLogger } from '../util/logger.js';
import type { Ask } from './ask.js';
import type { Channel, JsonRpcId, RequestInfo } from './channel.js';
import type { ClientRequests } from './client-requests.js';
import type { Peer } from './peer.js';
import type { TaskRuntime } from './tasks/task-runtime.js';

/** Who a request comes from, as the dispatcher knows it: what a {@link ToolScope} decides on. */
export interface ToolScopeRequest {
  /** The client: one stdio connection or HTTP session; a throwaway peer for stateless HTTP (`peer.stateless`). */
  readonly peer: Peer;
  /** Auth, and the tools an authorizer already narrowed (`info.tools`). */
  readonly info: RequestInfo | undefined;
  /** The request's era. */
  readonly era: 'legacy' | 'modern';
  /** The message's method (absent for a batch and for responses). */
  readonly method?: string;
}

/**
 * Narrows the tools one request may list and call (per-session tool
 * lists in search mode). Return undefined to keep `info.tools` (or all tools).
 * A promise holds the request until it settles (a list kept in a shared store);
 * the in-process path stays synchronous.
 */
export type ToolScope = (request: ToolScopeRequest) => ToolSource | undefined | Promise<ToolSource | undefined>;

/** `serverInfo` of the `initialize` result. */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Array<{ src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }>;
}

/** The capabilities the server advertises (derived from what is configured). */
export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  completions?: object;
  logging?: object;
  /** 2025-11-25 tasks: which task operations and task-augmented requests the server supports. */
  tasks?: { list?: object; cancel?: object; requests?: { tools?: { call?: object } } };
  experimental?: { [key: string]: object };
  extensions?: { [key: string]: object };
}

/** Shared state of one dispatcher. */
export interface Engine {
  readonly serverInfo: ServerInfo;
  readonly instructions: string | undefined;
  readonly capabilities: ServerCapabilities;
  readonly tools: ToolSource;
  readonly resources: ResourceRegistry | undefined;
  readonly prompts: PromptRegistry | undefined;
  readonly runTool: ToolRunner;
  readonly logger: ServerLogger;
  readonly clientRequests: ClientRequests;
  /** Tasks, when the server serves them: undefined means calls never become tasks. */
  readonly tasks?: TaskRuntime | undefined;
  /** False while the server drains for shutdown: new tool calls are refused. */
  readonly accepting: boolean;
  /** Register a running call so drain() can wait for it. */
  track(done: Promise<unknown>): void;
}

/** Parameters of a request or notification (always an object once dispatched). */
export type Params = { [key: string]: unknown };
export type Result = { [key: string]: unknown };

/** What a method handler knows about the request it answers. */
export interface RequestScope {
  readonly id: JsonRpcId;
  readonly peer: Peer;
  readonly channel: Channel;
  readonly info: RequestInfo | undefined;
  readonly engine: Engine;
  /**
   * 2026-07-28 prompts/get and resources/read: how their handlers ask the
   * client (an input_required round). Absent: they ask on the request (2025).
   */
  readonly ask?: Ask;
}

/**
 * A request handler. Returns the result, or `undefined` when the request must
 * get no response (a call the client cancelled). Throws `ProtocolError` for a
 * JSON-RPC error.
 */
export type MethodHandler = (params: Params, scope: RequestScope) => Result | undefined | Promise<Result | undefined>;

/** A notification handler (never answered). */
export type NotificationHandler = (params: Params, scope: Omit<RequestScope, 'id'>) => void;
