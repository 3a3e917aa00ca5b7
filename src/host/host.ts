/**
 * `createHost`: many servers, one catalog, one policy. The library an agent
 * builder uses to act on annotations.
 */
import picomatch from 'picomatch';
import { findSignInRequired } from '../auth/client/sign-in-required.js';
import { CandorError } from '../errors.js';
import type { WireToolLike } from '../tool/annotations.js';
import { readApprovals } from './approvals-file.js';
import { CallRunner } from './call-runner.js';
import { Catalog, catalogTools, DEFAULT_SEPARATOR } from './catalog.js';
import { Confirmations } from './confirmations.js';
import type { Host, HostEvents, HostOptions, ServerState } from './host-api.js';
import { type ExportOptions, toAnthropicTools, toOpenAITools } from './model-tools.js';
import { Overrides } from './overrides.js';
import { PinGuard } from './pins/pin-guard.js';
import { Policy } from './policy.js';
import { schedule } from './scheduler.js';
import { ServerConnection } from './server-connection.js';
import { createTaintSession, taintModeOf } from './taint.js';
import type { CallOutcome, CatalogTool, RoutedCalls, RoutedRunOptions, ToolCall } from './types.js';
import { ROUTED_CALLS } from './types.js';

/**
 * Connect to servers and build a host.
 *
 * @example
 * ```ts
 * import { createHost } from 'candor/host';
 *
 * const host = await createHost({
 *   servers: {
 *     memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
 *     workspace: { url: 'http://127.0.0.1:3000/mcp', trust: 'trusted' },
 *   },
 *   policy: { preset: 'default', rules: [{ decision: 'deny', tools: '*__delete_*' }] },
 *   pins: { file: 'candor.lock.json', onChange: 'block' },
 *   onConfirm: async ({ tool, reason }) => ((await askUser(`${tool}: ${reason}`)) ? 'allow-once' : 'deny'),
 * });
 * const outcomes = await host.run([
 *   { tool: 'workspace__read_file', args: { path: 'README.md' } },
 *   { tool: 'memory__read_graph' },
 * ]);
 * ```
 */
export async function createHost(options: HostOptions): Promise<Host> {
  if (!options || typeof options !== 'object' || !options.servers || typeof options.servers !== 'object') {
    throw new CandorError('createHost needs { servers: { name: { command | url | transport } } }.', {
      code: 'invalid_host_options',
    });
  }
  const separator =
    (typeof options.namespace === 'string' ? options.namespace : options.namespace?.separator) ?? DEFAULT_SEPARATOR;
  if (separator.length === 0)
    throw new CandorError('The namespace separator cannot be empty.', { code: 'invalid_host_options' });
  const policy = new Policy(options.policy ?? 'default');
  const overrides =
    options.overrides === undefined
      ? undefined
      : typeof options.overrides === 'string'
        ? await Overrides.load(options.overrides)
        : new Overrides(options.overrides);
  const pins = options.pins ? await PinGuard.open(options.pins) : undefined;
  const confirmations = new Confirmations({
    handler: options.onConfirm,
    timeoutMs: options.confirmTimeoutMs,
    ...(options.approvalsFile === undefined
      ? {}
      : { approved: await readApprovals(options.approvalsFile), file: options.approvalsFile }),
  });
  const catalog = new Catalog();
  const listeners = new Map<keyof HostEvents, Set<(payload: never) => void>>();
  const emit = <E extends keyof HostEvents>(event: E, payload: HostEvents[E]) => {
    for (const listener of listeners.get(event) ?? []) (listener as (p: HostEvents[E]) => void)(payload);
  };
  const commandMatchers = Object.entries(options.commandTools ?? {}).map(([pattern, config]) => ({
    match: picomatch(pattern, { dot: true }),
    argument: config.argument,
  }));
  const commandArgument = (tool: CatalogTool) => commandMatchers.find((m) => m.match(tool.name))?.argument;

  const connections = new Map<string, ServerConnection>();
  const lastTools = new Map<string, WireToolLike[]>();
  const trustOf = (server: string) => options.servers[server]?.trust ?? 'untrusted';

  const rebuild = (server: string, tools: WireToolLike[]) => {
    lastTools.set(server, tools);
    const states = pins?.review(server, tools);
    const built = catalogTools({
      server,
      trust: trustOf(server),
      tools,
      separator,
      overrides,
      pins: states,
      tightenHints: options.tightenHints === true,
    });
    catalog.replace(server, built);
    for (const tool of built)
      for (const warning of tool.warnings) emit('warning', { server, message: `${tool.name}: ${warning}` });
  };

  for (const [name, config] of Object.entries(options.servers)) {
    if (name.length === 0 || name.includes(separator)) {
      throw new CandorError(
        `Server name ${JSON.stringify(name)} must be non-empty and must not contain "${separator}".`,
        {
          code: 'invalid_host_options',
        },
      );
    }
    if (config.trust !== undefined && config.trust !== 'trusted' && config.trust !== 'untrusted') {
      throw new CandorError(`Server "${name}": trust must be 'trusted' or 'untrusted'.`, {
        code: 'invalid_host_options',
      });
    }
    const connection = new ServerConnection({
      name,
      config,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.clientCapabilities ? { capabilities: options.clientCapabilities } : {}),
      ...(options.leanCalls === false ? { leanCalls: false } : {}),
      ...(options.onClient ? { onClient: (client) => options.onClient!(name, client) } : {}),
      onToolsChanged: (tools) => {
        try {
          rebuild(name, tools);
          emit('tools-changed', { server: name, report: pins?.report(name) });
        } catch (error) {
          emit('warning', { server: name, message: (error as Error).message });
        }
      },
      onError: (error) => emit('warning', { server: name, message: `refreshing tools failed: ${error.message}` }),
    });
    connections.set(name, connection);
  }

  const failures: string[] = [];
  await Promise.all(
    [...connections.values()].map(async (connection) => {
      try {
        await connection.connect();
        rebuild(connection.name, await connection.listTools());
      } catch (error) {
        if (!connection.config.optional) failures.push(`${connection.name}: ${(error as Error).message}`);
        else emit('warning', { server: connection.name, message: (error as Error).message });
      }
    }),
  );
  if (failures.length > 0) {
    await Promise.all([...connections.values()].map((c) => c.close()));
    throw new CandorError(`createHost could not start every server:\n  ${failures.join('\n  ')}`, {
      code: 'connect_failed',
    });
  }

  const runner = new CallRunner({
    catalog,
    policy,
    pins,
    confirmations,
    connection: (server) => connections.get(server),
    commandArgument,
    onPinApproved: (tool) => {
      const tools = lastTools.get(tool.server);
      if (tools) rebuild(tool.server, tools);
    },
    retry: options.retry ?? {},
    defaultTimeoutMs: options.timeoutMs ?? 60_000,
    taint: { session: createTaintSession(), mode: taintModeOf(options.taint, policy.preset) },
  });

  const runBatch = async (
    calls: readonly ToolCall[],
    origin: 'model' | 'app',
    runOptions: RoutedRunOptions = {},
  ): Promise<CallOutcome[]> => {
    if (!Array.isArray(calls)) throw new CandorError('run() takes an array of calls.', { code: 'invalid_calls' });
    const prepared = await Promise.all(calls.map((call, index) => runner.prepare(call, index, origin)));
    const plans = prepared.map((p) => runner.plan(p));
    return schedule(
      plans,
      {
        perform: (index, signal) => runner.perform(prepared[index]!, signal, plans[index]!.parallel, runOptions),
        skipped: (index, message) => placeholder(prepared[index]!.call, index, 'skipped', message),
        cancelled: (index) =>
          placeholder(prepared[index]!.call, index, 'cancelled', 'the batch was aborted before this call started.'),
      },
      { concurrency: runOptions.concurrency ?? options.concurrency ?? 8, signal: runOptions.signal },
    );
  };

  const host: Host & { [ROUTED_CALLS]: RoutedCalls } = {
    tools: () =>
      catalog
        .all()
        .filter(
          (tool) =>
            tool.visibility.includes('model') &&
            policy.lists(tool, { commandGated: commandArgument(tool) !== undefined }),
        ),
    catalog: () => catalog.all(),
    offered: () =>
      catalog.all().filter((tool) => policy.lists(tool, { commandGated: commandArgument(tool) !== undefined })),
    tool: (name) => catalog.get(name),
    run: (calls, runOptions) => runBatch(calls, 'model', runOptions),
    call: async (tool, args, runOptions = {}) => {
      const call: ToolCall = { tool, args: args ?? {} };
      if (runOptions.timeoutMs !== undefined) call.timeoutMs = runOptions.timeoutMs;
      if (runOptions.approval !== undefined) call.approval = runOptions.approval;
      return (await runBatch([call], 'model', runOptions))[0]!;
    },
    decide: async (tool, args, decideOptions = {}) => {
      if (typeof tool !== 'string')
        throw new CandorError('decide() needs a tool name (a string).', { code: 'invalid_calls' });
      const call: ToolCall = { tool, args: args ?? {} };
      return runner.decide(
        await runner.prepare(call, 0, decideOptions.origin ?? 'model'),
        decideOptions.taint ? { taint: decideOptions.taint } : {},
      );
    },
    callFromApp: async (request, runOptions) => {
      const tool = catalog.get(request.tool) ?? catalog.get(`${request.server}${separator}${request.tool}`);
      if (tool && tool.server !== request.server) {
        return placeholder(
          { tool: request.tool },
          0,
          'denied',
          `an app of ${request.server} may not call ${tool.name}.`,
        );
      }
      const name = tool?.name ?? `${request.server}${separator}${request.tool}`;
      return (await runBatch([{ tool: name, args: request.args ?? {} }], 'app', runOptions))[0]!;
    },
    toOpenAITools: ((exportOptions?: ExportOptions & { api?: 'chat' | 'responses' }) =>
      toOpenAITools(host.tools(), exportOptions as ExportOptions & { api: 'responses' })) as Host['toOpenAITools'],
    toAnthropicTools: (exportOptions) => toAnthropicTools(host.tools(), exportOptions),
    pins: {
      report: (server) => pins?.report(server),
      approve: (name) => {
        const tool = catalog.get(name);
        if (!pins) throw new CandorError('Pins are not configured (createHost({ pins })).', { code: 'pins_off' });
        if (!tool) throw new CandorError(`No tool named ${name}.`, { code: 'unknown_tool' });
        pins.approve(tool);
        rebuild(tool.server, lastTools.get(tool.server) ?? []);
      },
      pinServer: (server) => {
        if (!pins) throw new CandorError('Pins are not configured (createHost({ pins })).', { code: 'pins_off' });
        pins.pinServer(server);
        rebuild(server, lastTools.get(server) ?? []);
      },
      get lock() {
        return pins?.lock;
      },
      save: async (path) => {
        if (!pins) throw new CandorError('Pins are not configured (createHost({ pins })).', { code: 'pins_off' });
        await pins.save(path);
      },
      reload: async () => {
        if (!pins) return;
        await pins.reload();
        for (const [server, tools] of lastTools) rebuild(server, tools);
      },
    },
    refresh: async (server) => {
      const names = server === undefined ? [...connections.keys()] : [server];
      for (const name of names) {
        const connection = connections.get(name);
        if (!connection) throw new CandorError(`No server named ${name}.`, { code: 'unknown_server' });
        if (connection.needsReconnect) await connection.connect();
        rebuild(name, await connection.listTools());
      }
    },
    servers: () =>
      [...connections.values()].map((connection) => {
        const state: ServerState = {
          name: connection.name,
          status: connection.status,
          trust: trustOf(connection.name),
          tools: catalog.ofServer(connection.name).length,
        };
        if (connection.era) state.era = connection.era;
        if (connection.protocolVersion) state.protocolVersion = connection.protocolVersion;
        if (connection.error) state.error = connection.error.message;
        const required = findSignInRequired(connection.error);
        if (required) state.signIn = required.command;
        return state;
      }),
    client: (server) => connections.get(server)?.client,
    approvalsSaved: () => confirmations.saved(),
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (payload: never) => void);
    },
    close: async () => {
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
    [ROUTED_CALLS]: {
      call: (tool, args, runOptions) => host.call(tool, args, runOptions),
      callFromApp: (request, runOptions) => host.callFromApp(request, runOptions),
    },
  };
  return host;
}

function placeholder(
  call: Partial<ToolCall> | undefined,
  index: number,
  status: CallOutcome['status'],
  message: string,
): CallOutcome {
  const outcome: CallOutcome = {
    index,
    tool: String(call?.tool),
    status,
    message,
    untrustedContent: true,
    attempts: 0,
    parallel: false,
    warnings: [],
  };
  if (call?.id !== undefined) outcome.id = call.id;
  return outcome;
}
