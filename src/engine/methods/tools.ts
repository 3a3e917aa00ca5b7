/** `tools/list` and `tools/call`. */
import { ProtocolError } from '../../errors.js';
import { EngineCallContext } from '../call-context.js';
import type { MethodHandler, Result } from '../engine.js';
import { RawJson, SERVER_SHUTTING_DOWN } from '../jsonrpc.js';
import type { InFlight } from '../peer.js';
import { invalidParams, optionalCursor } from './params.js';
import { callToolAsTask } from './tasks.js';

/** `tools/list`: a page of the registry's precomputed manifest. */
export const listTools: MethodHandler = (params, { engine, info }) => {
  const cursor = optionalCursor(params);
  const options = cursor === undefined ? {} : { cursor };
  const tools = info?.tools ?? engine.tools;
  // The registry caches the page as JSON text: send it as is (nothing is rebuilt per request).
  if (tools.manifestJson) return new RawJson(tools.manifestJson(options)) as unknown as Result;
  return tools.manifest(options) as unknown as Result;
};

/**
 * `tools/call`: resolve the tool (unknown → -32602, SEP-1303), run it through
 * the pipeline, and answer its result, or nothing if the client cancelled.
 */
export const callTool: MethodHandler = async (params, scope) => {
  const { engine, peer, id, info } = scope;
  const name = params.name;
  if (typeof name !== 'string') throw invalidParams('"name" must be the tool name (a string).');
  const args = params.arguments;
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
    throw invalidParams('"arguments" must be an object.');
  }
  if (!engine.accepting) {
    throw new ProtocolError(SERVER_SHUTTING_DOWN, 'The server is shutting down and takes no new tool calls.');
  }
  const tools = info?.tools ?? engine.tools;
  const tool = tools.get(name);
  if (tool === undefined) throw new ProtocolError(-32602, tools.unknownToolMessage?.(name) ?? `Unknown tool: ${name}`);
  // A task (2025-11-25 tasks): only when the call asks for one or the tool requires it.
  if (engine.tasks !== undefined && (params.task !== undefined || tool.task === 'required')) {
    return callToolAsTask(params, scope, tool, args ?? {});
  }
  if (peer.inFlight.has(id))
    throw new ProtocolError(-32600, `Request id ${JSON.stringify(id)} is already in use by a running call.`);
  const meta = params._meta as { progressToken?: unknown } | undefined;
  const token = meta?.progressToken;
  const ctx = new EngineCallContext(
    tool,
    args ?? {},
    scope,
    typeof token === 'string' || typeof token === 'number' ? token : undefined,
  );
  // 2025 era: a dropped connection is not a cancellation (spec, cancellation), so
  // info.signal is deliberately not wired to the call; notifications/cancelled is.
  const done = engine.runTool(ctx);
  // Settles with the call, or with undefined as soon as the client cancels it
  // (one promise instead of a second one and a Promise.race per call:).
  let onCancel!: () => void;
  const answer = new Promise<Awaited<typeof done> | undefined>((resolve, reject) => {
    onCancel = () => resolve(undefined);
    done.then(resolve, reject);
  });
  const entry: InFlight = {
    cancelled: false,
    done,
    abort(reason) {
      ctx.abort(reason);
      if (entry.cancelled) onCancel();
    },
  };
  peer.inFlight.set(id, entry);
  engine.track(done);
  try {
    const result = await answer;
    return entry.cancelled ? undefined : result;
  } finally {
    peer.inFlight.delete(id);
    ctx.finish();
  }
};
