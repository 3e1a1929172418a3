import { randomUUID } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { minimumBid } from '@common/bid-rules.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { insertListing } from './cars.ts';
import { RedisCluster, redisClusterAvailable } from './redis-cluster.ts';
import { http, insertAccounts, signIn, type Account } from './server-database.ts';
import { waitUntil } from './sockets.ts';
import { TEST_SERVER_SETTINGS } from './test-settings.ts';

/**
 * Several machines on this one: a Redis Cluster (3 primaries, 3 replicas), `hosts` server
 * "hosts" of `workers` processes each (`WEB_CONCURRENCY`, each host on its own port, in a
 * process group of its own so a lost host can be killed whole), and HAProxy in front as a plain
 * TCP balancer with health checks. Clients speak WebSocket only, so no stickiness is needed
 * anywhere. Needs PostgreSQL (DATABASE_URL): the hosts share one database, as in production.
 * Everything runs on ports of its own and `stop()` ends all of it.
 */

/** Why the rig cannot run here, or null. */
export function hostsRigUnavailable(): string | null {
  if (!process.env.DATABASE_URL) return 'needs DATABASE_URL (PostgreSQL): the hosts share one database';
  if (spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status !== 0) return 'haproxy is not installed (.ci/run installs it)';
  return redisClusterAvailable();
}

export interface RigHost {
  index: number;
  port: number;
  url: string;
  process: ChildProcess;
  exited: Promise<void>;
}

export interface RigOptions {
  hosts?: number;
  workers?: number;
  /** First Redis Cluster port (six consecutive ports, and each + 10000 for the cluster bus). */
  redisBasePort?: number;
  /** HAProxy's port; the hosts take the ports after it. */
  proxyPort?: number;
  env?: Record<string, string>;
  log?: (line: string) => void;
}

const SECRET = 'hosts-rig-secret-0123456789abcdefghijklmn';

export class HostsRig {
  readonly hosts: RigHost[] = [];
  private haproxy: ChildProcess | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), 'lm-hosts-rig-'));
  readonly prefix = `rig${process.pid}`;

  private constructor(
    readonly redis: RedisCluster,
    readonly database: TestDatabase,
    readonly proxyPort: number,
    private readonly options: RigOptions,
  ) {}

  static async start(options: RigOptions = {}): Promise<HostsRig> {
    const database = await createTestDatabase();
    let redis: RedisCluster;
    try {
      redis = await RedisCluster.start({ basePort: options.redisBasePort ?? 7101 });
    } catch (error) {
      await database.close();
      throw error;
    }
    const rig = new HostsRig(redis, database, options.proxyPort ?? 7201, options);
    try {
      const count = options.hosts ?? 3;
      await Promise.all(Array.from({ length: count }, (_, i) => rig.startHost(i)));
      rig.startProxy();
      await waitUntil(async () => (await fetch(`${rig.url}/api/health`).catch(() => null))?.ok === true, 20_000, 'HAProxy to answer');
    } catch (error) {
      await rig.stop();
      throw error;
    }
    return rig;
  }

  /** Where clients connect: HAProxy. */
  get url(): string {
    return `http://127.0.0.1:${this.proxyPort}`;
  }

  private hostPort(index: number): number {
    return this.proxyPort + 1 + index;
  }

  /**
   * Starts host `index` (again, after a kill) and waits until it answers. A host started after
   * the rig is not behind HAProxy: it is reached at its own `url`.
   */
  async startHost(index: number, workers = this.options.workers ?? 2): Promise<RigHost> {
    const port = this.hostPort(index);
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['server/run.mjs', 'start'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: this.url,
        SERVE_CLIENT: 'false',
        LOG_LEVEL: 'warn',
        ...TEST_SERVER_SETTINGS,
        DATABASE_URL: this.database.url!,
        REDIS_URL: '',
        REDIS_CLUSTER_NODES: this.redis.nodesSetting,
        REDIS_PREFIX: this.prefix,
        JWT_SECRET: SECRET,
        WEB_CONCURRENCY: String(workers),
        SOCKET_TRANSPORTS: 'websocket',
        DATA_DIR: mkdtempSync(join(this.dir, `host-${index}-`)),
        ...this.options.env,
      },
      // A process group of its own: a lost host is its primary and its workers, all at once.
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const host: RigHost = { index, port, url, process: child, exited };
    this.hosts[index] = host;
    let gone = false;
    void exited.then(() => (gone = true));
    await waitUntil(
      async () => {
        if (gone) throw new Error(`host ${index} exited while starting`);
        return (await fetch(`${url}/api/health`).catch(() => null))?.ok === true;
      },
      60_000,
      `host ${index} to start`,
    );
    return host;
  }

  /** `kill -9` of every process of one host. */
  async killHost(index: number): Promise<void> {
    const host = this.hosts[index];
    if (!host || host.process.exitCode !== null || host.process.signalCode !== null) return;
    try {
      process.kill(-host.process.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await host.exited;
  }

  private startProxy(): void {
    const config = join(this.dir, 'haproxy.cfg');
    const servers = this.hosts.map((host) => `  server host${host.index} 127.0.0.1:${host.port} check inter 1s fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down`).join('\n');
    writeFileSync(
      config,
      `global
  maxconn 9000

defaults
  mode tcp
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  # Generous: a host busy taking over viewers must not be marked down by a slow check. A dead one
  # refuses connections: the first refusal marks it down (observe layer4, on the servers) and
  # each retry goes to another host (redispatch 1), as in deploy/haproxy.cfg.
  timeout check 5s
  retries 3
  option redispatch 1

frontend app
  bind 127.0.0.1:${this.proxyPort}
  default_backend hosts

backend hosts
  balance roundrobin
  option httpchk
  http-check send meth GET uri /api/health
  http-check expect status 200
${servers}
`,
    );
    this.haproxy = spawn('haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }

  /** Accounts and a car written straight into the shared database; accounts come signed in through HAProxy. */
  async prepare(counts: { bidders: number; cars?: number }): Promise<{ carId: number; price: number; cars: { id: number; price: number }[]; bidders: (Account & { token: string })[] }> {
    const [seller, ...bidders] = await insertAccounts(this.database.db, ['Rig Seller', ...Array.from({ length: counts.bidders }, (_, i) => `Rig Bidder ${i + 1}`)]);
    const cars = [];
    for (let i = 0; i < (counts.cars ?? 1); i++) cars.push(await insertListing(this.database.db, seller!, { price: 100_000 }));
    const signedIn = [];
    for (const bidder of bidders) signedIn.push({ ...bidder, token: await signIn(this.url, bidder) });
    return { carId: cars[0]!.id, price: cars[0]!.price, cars, bidders: signedIn };
  }

  async stop(): Promise<void> {
    for (const host of this.hosts) if (host) await this.killHost(host.index);
    if (this.haproxy && this.haproxy.exitCode === null) {
      const exited = new Promise((resolve) => this.haproxy!.once('exit', resolve));
      this.haproxy.kill('SIGKILL');
      await exited;
    }
    await this.redis.stop();
    await this.database.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A viewer of one car through HAProxy, WebSocket only, as the web app behaves: it joins the
 * car's room, keeps every bid pushed, and after a reconnect re-joins and re-reads the car's bids
 * by REST, merging by id.
 */
export class RigViewer {
  readonly bids = new Map<number, number>();
  /** Pushes received per bid id (a bid pushed twice counts twice). */
  readonly pushes = new Map<number, number>();
  /** bid→push latencies, ms (the server's emittedAt to arrival, same clock). */
  readonly latencies: number[] = [];
  /** When each bid's push arrived (epoch ms), by bid id. */
  readonly arrivedAt = new Map<number, number>();
  reconnects = 0;
  /** ms from losing the connection to being joined again, per reconnect. */
  readonly reconnectMs: number[] = [];
  private lostAt: number | null = null;
  readonly socket: Socket;
  joined = false;

  constructor(
    private readonly base: string,
    readonly carId: number,
  ) {
    this.socket = io(base, { transports: ['websocket'], reconnectionDelay: 200, reconnectionDelayMax: 1_000, randomizationFactor: 0.5, timeout: 10_000 });
    this.socket.on('bid:placed', (event: { bid: { id: number; amount: number }; currentBids: number; emittedAt: number }) => {
      this.latencies.push(Date.now() - event.emittedAt);
      if (!this.arrivedAt.has(event.bid.id)) this.arrivedAt.set(event.bid.id, Date.now());
      this.bids.set(event.bid.id, event.bid.amount);
      this.pushes.set(event.bid.id, (this.pushes.get(event.bid.id) ?? 0) + 1);
      // The car's bid count says a push went missing (a shard failing over): read the bids again.
      if (event.currentBids > this.bids.size) void this.resync();
    });
    this.socket.on('disconnect', () => {
      this.joined = false;
      this.lostAt ??= Date.now();
    });
    this.socket.on('connect', () => void this.join());
  }

  private async join(): Promise<void> {
    const answer = await this.socket.timeout(10_000).emitWithAck('car:join', { carId: this.carId }).catch(() => null);
    if (!answer?.ok) return;
    if (this.lostAt !== null) {
      // Resync what was missed while away.
      await this.resync();
      this.reconnects += 1;
      this.reconnectMs.push(Date.now() - this.lostAt);
      this.lostAt = null;
    }
    this.joined = true;
  }

  resyncs = 0;

  private resyncing: Promise<void> | null = null;

  private resync(): Promise<void> {
    this.resyncing ??= this.readBids().finally(() => (this.resyncing = null));
    return this.resyncing;
  }

  private async readBids(): Promise<void> {
    this.resyncs += 1;
    const { body } = await http<{ bids: { id: number; amount: number }[] }>(this.base, null, 'GET', `/api/bids/car/${this.carId}`).catch(() => ({ body: { data: { bids: [] } } }));
    for (const bid of body.data.bids ?? []) this.bids.set(bid.id, bid.amount);
  }

  /** Whether this viewer holds every one of `ids`. */
  holds(ids: number[]): boolean {
    return ids.every((id) => this.bids.has(id));
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * Bids one at a time on `carId` through HAProxy, each the minimum over the last, bidders in turn.
 * A bid whose connection was cut is sent again with its Idempotency-Key; answers the ids
 * answered 201.
 */
export class RigBidder {
  readonly accepted: number[] = [];
  /** When the POST of each accepted bid was sent (epoch ms), by bid id. */
  readonly sentAt = new Map<number, number>();
  private highest: number | null = null;
  private turn = 0;

  constructor(
    private readonly base: string,
    private readonly carId: number,
    private readonly price: number,
    private readonly bidders: { token: string }[],
  ) {}

  async bid(): Promise<number> {
    const bidder = this.bidders[this.turn++ % this.bidders.length]!;
    let idempotencyKey = `rig-${this.carId}-${randomUUID()}`;
    for (let attempt = 0; ; attempt++) {
      const amount = minimumBid(this.price, this.highest);
      const sent = Date.now();
      const res = await fetch(`${this.base}/api/bids`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bidder.token}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify({ carId: this.carId, amount }),
      }).catch(() => null);
      if (res?.status === 201) {
        const body = (await res.json()) as { data: { bid: { id: number }; car: { highestBid: number } } };
        this.highest = body.data.car.highestBid;
        this.accepted.push(body.data.bid.id);
        this.sentAt.set(body.data.bid.id, sent);
        return body.data.bid.id;
      }
      if (res && res.status !== 503 && res.status < 500) {
        const body = (await res.json()) as { code?: string; details?: { highestBid?: number | null } };
        if (body.code !== 'BID_TOO_LOW' || attempt >= 40) throw new Error(`bid answered ${res.status} ${body.code ?? ''}`);
        this.highest = body.details?.highestBid ?? null;
        idempotencyKey = `rig-${this.carId}-${randomUUID()}`;
        continue;
      }
      if (attempt >= 40) throw new Error('a bid could not be placed in 40 attempts');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
