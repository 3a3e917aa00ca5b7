/**
 * `candor/protocol`: the protocol engine and transports, for embedding candor's
 * dispatcher in a server or transport of your own (JSON-RPC messages and their
 * serialisation, the dispatcher and its peers, era classification, the Streamable
 * HTTP handler and listener, event stores, the tool pipeline). A server author needs
 * none of it: `createServer` from `candor` builds and serves all of this.
 *
 * @example
 * ```ts
 * import { createDispatcher, serializeMessage } from 'candor/protocol';
 *
 * const dispatcher = createDispatcher({ serverInfo: { name: 'demo', version: '1.0.0' }, tools: registry });
 * const answer = await dispatcher.handle(message, { peer: dispatcher.createPeer(), channel });
 * if (answer) process.stdout.write(`${serializeMessage(answer)}\n`);
 * ```
 */
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
export type { Dispatcher } from './engine/dispatcher.js';
export { createDispatcher } from './engine/dispatcher.js';
export type { DispatchContext, DispatcherOptions, DrainOptions } from './engine/dispatcher-options.js';
export type { ProtocolVersion } from './engine/era.js';
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './engine/era.js';
export { classify, parseError, RawJson, serializeMessage } from './engine/jsonrpc.js';
export type { ChangeEvent, ChangeSource } from './engine/modern/change-source.js';
export { InProcessChangeSource, publishRegistryChanges } from './engine/modern/change-source.js';
export type { EraRoute } from './engine/modern/classify.js';
export { classifyEra } from './engine/modern/classify.js';
export { httpStatusOf, MODERN_PROTOCOL_VERSIONS } from './engine/modern/protocol.js';
export type { PeerOptions } from './engine/peer.js';
export { Peer } from './engine/peer.js';
export type { PipelineOptions } from './pipeline/pipeline.js';
export { createToolPipeline } from './pipeline/pipeline.js';
export type { Admission, HttpAuthorizer, HttpRefusal, WellKnownDocument } from './transports/http/authorizer.js';
export type { FetchHandlerExtra, HttpHandler } from './transports/http/create-http-handler.js';
export { createHttpHandler } from './transports/http/create-http-handler.js';
export type { InMemoryEventStoreOptions, ReplaySink } from './transports/http/event-store.js';
export { InMemoryEventStore } from './transports/http/event-store.js';
export type { HttpRequestInfo } from './transports/http/exchange.js';
export type { HttpHandlerOptions } from './transports/http/handler-options.js';
export type { HttpListener, HttpListenOptions } from './transports/http/listen.js';
export { listenHttp } from './transports/http/listen.js';
