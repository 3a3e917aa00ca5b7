/**
 * A real Redis Cluster for tests: `redis-server` processes with
 * cluster mode on, joined by `redis-cli --cluster create` (3 masters, each with
 * a replica by default), no persistence, a 1 s node timeout so a replica takes
 * over quickly when its master dies. Stopped when the test file ends.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ClusterNode {
  port: number;
  child: ChildProcess;
}

export interface RedisClusterServer {
  /** `redis+cluster://127.0.0.1:<port>,…` (every node as a seed). */
  readonly url: string;
  readonly nodes: readonly ClusterNode[];
  /** `redis-cli -p <port> <args…>` against a live node; its output. */
  cli(...args: string[]): Promise<string>;
  /** The node serving `slot` as master now. */
  masterOf(slot: number): Promise<number>;
  /** SIGKILL a node. */
  kill(port: number): Promise<void>;
  stop(): Promise<void>;
}

/** A port p with p + 10000 (its cluster bus port) free as well. */
async function clusterPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await isFree(port)) && (await isFree(port + 10_000))) {
      taken.add(port);
      taken.add(port + 10_000);
      return port;
    }
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * @example
 * const cluster = await startRedisCluster();
 * afterAll(() => cluster.stop());
 * createServer({ redis: cluster.url });
 */
export async function startRedisCluster(
  options: { masters?: number; replicas?: number } = {},
): Promise<RedisClusterServer> {
  const { masters = 3, replicas = 1 } = options;
  const binary = process.env.REDIS_SERVER_BIN ?? 'redis-server';
  const dir = mkdtempSync(join(tmpdir(), 'candor-redis-cluster-'));
  const taken = new Set<number>();
  const nodes: ClusterNode[] = [];
  for (let i = 0; i < masters * (1 + replicas); i++) {
    const port = await clusterPort(taken);
    const child = spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '1000',
        // A replica may take over however long it has been apart from its master: with a 1 s
        // node timeout, a replica that last heard from its master a few seconds before (a busy
        // machine) otherwise refuses to stand for election, and the slots stay down.
        '--cluster-replica-validity-factor',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server ${port} did not start:\n${out}`)), 10_000);
      child.once('error', (error) => reject(new Error(`cannot start ${binary}: ${error.message}`)));
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    nodes.push({ port, child });
  }
  const alive = () => nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  const cli = async (...args: string[]) => (await run('redis-cli', ['-p', String(alive()[0]!.port), ...args])).stdout;
  await run('redis-cli', [
    '--cluster',
    'create',
    ...nodes.map((n) => `127.0.0.1:${n.port}`),
    '--cluster-replicas',
    String(replicas),
    '--cluster-yes',
  ]);
  // Every node agrees the cluster is up.
  const deadline = Date.now() + 30_000;
  for (const node of nodes) {
    while (
      !(await run('redis-cli', ['-p', String(node.port), 'cluster', 'info'])).stdout.includes('cluster_state:ok')
    ) {
      if (Date.now() > deadline) throw new Error('the Redis Cluster did not come up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    nodes,
    cli,
    async masterOf(slot) {
      // CLUSTER SHARDS would be tidier; CLUSTER SLOTS works on every Redis 7.
      const lines = (await cli('cluster', 'slots')).trim().split('\n');
      // Groups: start, end, master ip, master port, master id, replicas…; find the range holding the slot.
      for (let i = 0; i + 3 < lines.length; i++) {
        const start = Number(lines[i]);
        const end = Number(lines[i + 1]);
        if (
          Number.isInteger(start) &&
          Number.isInteger(end) &&
          lines[i + 2] === '127.0.0.1' &&
          slot >= start &&
          slot <= end
        ) {
          return Number(lines[i + 3]);
        }
      }
      throw new Error(`no master serves slot ${slot}`);
    },
    kill: (port) =>
      new Promise<void>((resolve) => {
        const node = nodes.find((n) => n.port === port)!;
        if (node.child.exitCode !== null || node.child.signalCode !== null) return resolve();
        node.child.once('exit', () => resolve());
        node.child.kill('SIGKILL');
      }),
    async stop() {
      await Promise.all(
        nodes.map(
          (node) =>
            new Promise<void>((resolve) => {
              if (node.child.exitCode !== null || node.child.signalCode !== null) return resolve();
              node.child.once('exit', () => resolve());
              node.child.kill('SIGKILL');
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
