import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answersPing } from './private-redis.ts';
import { waitUntil } from './sockets.ts';

/** Whether a Redis Cluster can be made here: `redis-server` and `redis-cli` of Redis 7 or later (sharded pub/sub). */
export function redisClusterAvailable(): string | null {
  const server = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (server.status !== 0) return 'redis-server is not installed';
  const version = /v=(\d+)\./.exec(server.stdout)?.[1];
  if (!version || Number(version) < 7) return `redis-server ${version ?? '?'} has no sharded pub/sub (needs 7 or later)`;
  if (spawnSync('redis-cli', ['--version'], { stdio: 'ignore' }).status !== 0) return 'redis-cli is not installed';
  return null;
}

export interface ClusterNode {
  port: number;
  role: 'master' | 'slave';
  /** The node id of its primary, for a replica. */
  primaryId: string | null;
  id: string;
  slots: string[];
}

/**
 * A Redis Cluster of the caller's own: `primaries` primaries with one replica each, on
 * consecutive ports from `basePort` (the cluster bus on each port + 10000), nothing saved
 * outside a temporary folder, every node killed by `stop()`. Never the machine's own Redis.
 */
export class RedisCluster {
  private readonly children = new Map<number, ChildProcess>();

  private constructor(
    readonly ports: number[],
    private readonly dir: string,
  ) {}

  static async start(options: { basePort?: number; primaries?: number; nodeTimeoutMs?: number } = {}): Promise<RedisCluster> {
    const basePort = options.basePort ?? 7101;
    const count = (options.primaries ?? 3) * 2;
    const ports = Array.from({ length: count }, (_, i) => basePort + i);
    for (const port of ports) if (await answersPing(port)) throw new Error(`port ${port} already has a Redis: pick another basePort`);
    const cluster = new RedisCluster(ports, mkdtempSync(join(tmpdir(), 'lm-redis-cluster-')));
    try {
      for (const port of ports) cluster.spawnNode(port, options.nodeTimeoutMs ?? 2_000);
      await Promise.all(ports.map((port) => waitUntil(() => answersPing(port), 10_000, `redis-server on port ${port}`)));
      const create = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'], { encoding: 'utf8' });
      if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
      await cluster.waitHealthy(20_000);
      // The replicas attach to their primaries a moment after the slots are served.
      await waitUntil(() => cluster.nodes().filter((node) => node.role === 'slave').length === count / 2, 20_000, 'every replica to attach');
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** `host:port,...` for REDIS_CLUSTER_NODES. */
  get nodesSetting(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(',');
  }

  private spawnNode(port: number, nodeTimeoutMs: number): void {
    const child = spawn(
      'redis-server',
      [
        '--port', String(port), '--bind', '127.0.0.1', '--protected-mode', 'no',
        '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', String(nodeTimeoutMs),
        '--dir', this.dir, '--save', '', '--appendonly', 'no', '--loglevel', 'warning',
      ],
      { stdio: 'ignore' },
    );
    this.children.set(port, child);
  }

  /** Every live node agrees the cluster is ok and every slot has a reachable primary. */
  async waitHealthy(timeoutMs: number): Promise<void> {
    await waitUntil(
      () => this.livePorts().every((port) => /cluster_state:ok/.test(this.cli(port, 'CLUSTER', 'INFO'))),
      timeoutMs,
      'the Redis Cluster to report cluster_state:ok',
    );
  }

  livePorts(): number[] {
    return this.ports.filter((port) => {
      const child = this.children.get(port);
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    });
  }

  cli(port: number, ...args: string[]): string {
    return spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout ?? '';
  }

  nodes(): ClusterNode[] {
    const port = this.livePorts()[0]!;
    return this.cli(port, 'CLUSTER', 'NODES')
      .trim()
      .split('\n')
      .map((line) => {
        const [id, address, flags, primary, , , , , ...slots] = line.split(' ');
        return {
          id: id!,
          port: Number(/:(\d+)@/.exec(address!)![1]),
          role: flags!.includes('master') ? ('master' as const) : ('slave' as const),
          primaryId: primary === '-' ? null : primary!,
          slots,
        };
      });
  }

  /** The live primaries' ports. */
  primaries(): number[] {
    return this.nodes()
      .filter((node) => node.role === 'master' && node.slots.length > 0 && this.livePorts().includes(node.port))
      .map((node) => node.port);
  }

  /** A node dies at once, as on a lost machine. */
  async kill(port: number): Promise<void> {
    const child = this.children.get(port);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** One INFO field summed over the live nodes (e.g. `total_net_output_bytes`, `total_commands_processed`). */
  sumInfo(field: string, ports = this.livePorts()): number {
    let sum = 0;
    for (const port of ports) {
      const match = new RegExp(`^${field}:(\\d+)`, 'm').exec(this.cli(port, 'INFO', 'stats'));
      if (match) sum += Number(match[1]);
    }
    return sum;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.children.keys()].map((port) => this.kill(port)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

