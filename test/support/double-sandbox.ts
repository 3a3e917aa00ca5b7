/**
 * A stdio MCP server in the real bubblewrap sandbox with service doubles beside it, for
 * the doubles' tests: the doubles' environment, mounts, loopback destinations and routes
 * go into the sandbox plan the way the observe wiring hands them over, and each tool call
 * is wrapped in the doubles' witness (mark before, changes after).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StartedDouble, WitnessChange } from '../../src/observe/doubles/types.js';
import { prepareServerSandbox, type ServerSandbox } from '../../src/sandbox/index.js';

/** One call through the sandbox: its result and what the doubles saw. */
export interface WitnessedCall {
  text: string;
  isError: boolean;
  changes: WitnessChange[];
}

/** The sandbox pieces of some started doubles, as `prepareServerSandbox` takes them. */
export function doublePlan(doubles: readonly StartedDouble[]) {
  return {
    env: Object.assign({}, ...doubles.map((d) => d.env)) as Record<string, string>,
    mounts: doubles.flatMap((d) => d.mounts),
    routes: doubles.flatMap((d) => d.routes ?? []),
    destinations: doubles.flatMap((d) => d.destinations),
  };
}

/**
 * Start `command args` in the sandbox with `doubles` and connect an SDK v1 client to it.
 *
 * @example
 * ```ts
 * const boxed = await sandboxWithDoubles({ name: 'saas', command: process.execPath, args: [fixture], doubles: [api] });
 * const { changes } = await boxed.call('get_project');
 * ```
 */
export async function sandboxWithDoubles(options: {
  name: string;
  command: string;
  args: string[];
  doubles: readonly StartedDouble[];
  env?: Record<string, string>;
}) {
  const plan = doublePlan(options.doubles);
  const sandbox: ServerSandbox = await prepareServerSandbox({
    name: options.name,
    command: options.command,
    args: options.args,
    env: { ...plan.env, ...options.env },
    spec: { network: plan.destinations.length > 0 ? plan.destinations : false, read: [], write: [], env: [] },
    routes: plan.routes,
    mounts: plan.mounts,
  });
  const transport = new StdioClientTransport({
    command: sandbox.command,
    args: sandbox.args,
    env: sandbox.env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'doubles-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await sandbox.dispose();
    throw new Error(`the sandboxed server did not start: ${String(error)}\n${stderr}`);
  }
  return {
    client,
    sandbox,
    stderr: () => stderr,
    /** Call a tool between the doubles' witness marks. */
    async call(name: string, args: Record<string, unknown> = {}): Promise<WitnessedCall> {
      await Promise.all(options.doubles.map((d) => d.witness.mark()));
      const result = (await client.callTool({ name, arguments: args })) as {
        content: Array<{ type: string; text?: string }>;
        isError?: boolean;
      };
      const changes = (await Promise.all(options.doubles.map((d) => d.witness.changes()))).flat();
      return {
        text: result.content.map((c) => c.text ?? '').join('\n'),
        isError: result.isError === true,
        changes,
      };
    },
    async close() {
      await client.close();
      await sandbox.dispose();
    },
  };
}
