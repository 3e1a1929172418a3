import { randomUUID } from 'node:crypto';
import { setTimeout as setTimeoutPromise } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { sqlRunnerFor, type DatabaseHandle, type Executor } from '../../../db/client.ts';
import { jobProcesses, jobRuns } from '../../../db/schema/index.ts';

/**
 * Payload of each job, by queue name. Each module that defines a job adds its entry:
 * `declare module '../jobs/job-runner.ts' { interface JobPayloads { 'x': {...} } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobPayloads {}
export type JobName = keyof JobPayloads & string;

export interface JobDefinition<K extends JobName> {
  name: K;
  /**
   * Runs one job. It must be idempotent: a job can run twice (a process killed mid-run, a
   * retry after an error), so it re-reads what it acts on and does nothing if that has moved on.
   * Throwing schedules a retry.
   */
  handle(payload: JobPayloads[K], context: { log: FastifyBaseLogger; jobId: string }): Promise<void>;
  retry?: { limit: number; delaySeconds: number; backoff: boolean };
  /** A run still active after this long is presumed lost (its process died) and run again. */
  expireInSeconds?: number;
  /** Jobs of this queue one process runs at the same time. */
  concurrency?: number;
  /** `short`: one waiting job per singleton key (enqueueing it again while one waits adds nothing). */
  policy?: 'standard' | 'short';
}

export interface EnqueueOptions {
  /** When the job becomes due; a time read from the database's clock. Default: now. */
  startAfter?: Date;
  /** With a `short` queue: at most one waiting job per key. */
  singletonKey?: string;
}

export interface JobRunnerOptions {
  log: FastifyBaseLogger;
  pollSeconds: number;
  /** False for processes that only enqueue (the operator command): they run no handlers. */
  runWorkers: boolean;
  /** How often each process looks for runs lost with a dead process. */
  maintenanceSeconds?: number;
  /** How often this process says it is alive; one silent for three beats is presumed dead. */
  heartbeatSeconds?: number;
}

/** pg-boss keeps its tables in this schema (its default). */
const BOSS_SCHEMA = 'pgboss';
/** How long stop() waits, after pg-boss stopped, for the runs and statements it left going. */
const STOP_PATIENCE_MS = 10_000;

const DEFAULT_RETRY = { limit: 25, delaySeconds: 2, backoff: true };
const DEFAULT_EXPIRE_SECONDS = 120;
const DEFAULT_HEARTBEAT_SECONDS = 2;
/** A worker's own poll, should a due check fail: this many poll intervals, and not under a minimum. */
const FALLBACK_POLL_FACTOR = 30;
const FALLBACK_POLL_MIN_SECONDS = 30;

/** Whether a queue as pg-boss lists it already has the options this process defines for it. */
function sameQueueOptions(
  found: { policy?: string | null; retryLimit?: number | null; retryDelay?: number | null; retryBackoff?: boolean | null; expireInSeconds?: number | null },
  wanted: { policy: string; retryLimit: number; retryDelay: number; retryBackoff: boolean; expireInSeconds: number },
): boolean {
  return (
    found.policy === wanted.policy &&
    found.retryLimit === wanted.retryLimit &&
    found.retryDelay === wanted.retryDelay &&
    found.retryBackoff === wanted.retryBackoff &&
    found.expireInSeconds === wanted.expireInSeconds
  );
}

/**
 * The one job runner: due work (escrow deadlines, payouts, mail) lives in PostgreSQL as pg-boss
 * jobs, on the server or in the embedded database alike (pg-boss runs over the app's own
 * connection, so a job can be written in the same transaction as the change that causes it).
 * Every process runs workers; a job is handed to one of them (`FOR UPDATE SKIP LOCKED`), and a
 * run lost with a killed process is handed out again once it expires.
 */
export class JobRunner {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<JobName>>();
  /** The workers of each queue that has had a job due in this process (see wake). */
  private readonly workers = new Map<string, Promise<string[]>>();
  private started = false;
  /** This process, as its heartbeat row names it. */
  private readonly processId = randomUUID();
  private heartbeat: NodeJS.Timeout | null = null;
  private dueCheck: NodeJS.Timeout | null = null;
  /** pg-boss's statements not yet answered, and the job runs in progress (see stop). */
  private readonly bossStatements = new Set<Promise<unknown>>();
  private readonly runs = new Set<Promise<unknown>>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly options: JobRunnerOptions,
  ) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => this.tracked(this.bossStatements, database.sql.executeSql(text, values)) },
      supervise: options.runWorkers,
      schedule: false,
      maintenanceIntervalSeconds: options.maintenanceSeconds ?? 30,
      // Finished jobs are kept a week for diagnosis, then removed.
      archiveCompletedAfterSeconds: 3_600,
      deleteAfterDays: 7,
    });
    this.boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  }

  define<K extends JobName>(definition: JobDefinition<K>): void {
    if (this.started) throw new Error(`job ${definition.name} defined after the runner started`);
    this.definitions.set(definition.name, definition as unknown as JobDefinition<JobName>);
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.ensureQueues();
    this.started = true;
    if (!this.options.runWorkers) return;
    await this.beat();
    const every = (this.options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS) * 1000;
    this.heartbeat = setInterval(() => void this.beat(), every);
    this.heartbeat.unref();
    // Workers start per queue the first time it has a job due (see wake): the first check is now.
    void this.checkDue();
  }

  private async run(definition: JobDefinition<JobName>, jobId: string, data: JobPayloads[JobName], log: FastifyBaseLogger, next: () => void): Promise<void> {
    try {
      await this.claim(jobId, definition.name);
      await definition.handle(data, { log, jobId });
    } catch (error) {
      log.warn({ err: error, jobId }, 'job failed; it will be retried');
      throw error;
    } finally {
      await this.database.db.delete(jobRuns).where(eq(jobRuns.jobId, jobId)).catch(() => undefined);
      // pg-boss waits a whole poll interval after each job; with more due, ask again at once.
      next();
    }
  }

  /** Starts the workers of one queue; each asks for a job at once, then when woken (see checkDue). */
  private async startWorkers(definition: JobDefinition<JobName>): Promise<string[]> {
    // Each worker polls on its own only as a fallback, should the due check fail.
    const fallbackPollSeconds = Math.max(this.options.pollSeconds * FALLBACK_POLL_FACTOR, FALLBACK_POLL_MIN_SECONDS);
    const log = this.options.log.child({ job: definition.name });
    const ids: string[] = [];
    for (let i = 0; i < (definition.concurrency ?? 1); i++) {
      // A worker added once pg-boss is stopping would run a job under a database about to close.
      if (!this.started) break;
      let workerId = '';
      workerId = await this.boss.work<JobPayloads[JobName]>(
        definition.name,
        { pollingIntervalSeconds: fallbackPollSeconds, batchSize: 1 },
        ([job]) => {
          if (!job) return Promise.resolve();
          // pg-boss hands out a job its worker fetched while stopping: fail it back to the queue
          // (another process or the next start runs it) rather than run it as the database closes.
          if (!this.started) return Promise.reject(new Error('the job runner is stopping; the job will be retried'));
          return this.tracked(this.runs, this.run(definition, job.id, job.data, log, () => this.boss.notifyWorker(workerId)));
        },
      );
      ids.push(workerId);
    }
    return ids;
  }

  /**
   * Every poll interval, one statement asks which queues have a job due and wakes their workers.
   * Each worker asking for its own queue instead cost one locking fetch per worker and interval
   * (a dozen and more a second with nothing to do, and as many at every start); a due job still
   * waits at most one interval.
   */
  private scheduleDueCheck(): void {
    this.dueCheck = setTimeout(() => void this.checkDue(), this.options.pollSeconds * 1000);
    this.dueCheck.unref();
  }

  private async checkDue(): Promise<void> {
    try {
      const { rows } = await this.database.sql.executeSql(
        `select distinct name from ${BOSS_SCHEMA}.job where state < 'active' and start_after < now()`,
      );
      if (!this.started) return;
      for (const row of rows) this.wake(String(row.name) as JobName);
    } catch (error) {
      if (this.started) this.options.log.warn({ err: error }, 'could not look for due jobs');
    } finally {
      if (this.started) this.scheduleDueCheck();
    }
  }

  /**
   * Creates pg-boss's tables and every defined queue, then stops, running no worker: for a
   * database that is copied before any process runs on it (the tests' migrated starting point).
   */
  async createQueues(): Promise<void> {
    if (this.started) throw new Error('createQueues is for a runner that has not started');
    await this.ensureQueues();
    await this.boss.stop({ graceful: false, close: false, wait: true });
  }

  private async ensureQueues(): Promise<void> {
    // Processes starting together would race to create the queue's tables and partitions
    // (PostgreSQL then reports duplicate schemas or deadlocks): one at a time, like migrations.
    await this.database.exclusive(async () => {
      await this.boss.start();
      // Read once: on an existing database every queue is usually there with its options already,
      // and creating or updating each anyway cost two statements a queue at every start.
      const existing = new Map((await this.boss.getQueues()).map((queue) => [queue.name, queue]));
      for (const definition of this.definitions.values()) {
        const retry = definition.retry ?? DEFAULT_RETRY;
        const queue = {
          name: definition.name,
          policy: definition.policy ?? 'standard',
          retryLimit: retry.limit,
          retryDelay: retry.delaySeconds,
          retryBackoff: retry.backoff,
          expireInSeconds: definition.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS,
        };
        const found = existing.get(definition.name);
        if (!found) await this.boss.createQueue(definition.name, queue);
        else if (!sameQueueOptions(found, queue)) await this.boss.updateQueue(definition.name, queue);
      }
    });
  }

  /**
   * Adds a job in the caller's transaction (or outside one, with the pool): it exists exactly
   * when the caller's own writes commit.
   */
  async enqueue<K extends JobName>(executor: Executor, name: K, payload: JobPayloads[K], options: EnqueueOptions = {}): Promise<string> {
    if (!this.definitions.has(name)) throw new Error(`unknown job ${name}`);
    const id = await this.boss.send(name, payload as object, {
      db: sqlRunnerFor(executor),
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    });
    // pg-boss answers null when nothing was inserted: fine when an equal job already waits, but
    // never lose a job silently otherwise (an unknown queue).
    if (!id && !options.singletonKey) throw new Error(`job ${name} was not queued`);
    return id ?? '';
  }

  /**
   * Adds many jobs of one queue in one statement, in the caller's transaction: what a loop of
   * `enqueue` does, in one round trip instead of one per job (an alert to hundreds of searches).
   */
  async enqueueMany<K extends JobName>(executor: Executor, name: K, payloads: JobPayloads[K][], options: Omit<EnqueueOptions, 'singletonKey'> = {}): Promise<void> {
    if (!this.definitions.has(name)) throw new Error(`unknown job ${name}`);
    if (payloads.length === 0) return;
    const startAfter = options.startAfter?.toISOString();
    await this.boss.insert(
      payloads.map((data) => ({ name, data: data as object, ...(startAfter ? { startAfter } : {}) })),
      { db: sqlRunnerFor(executor) },
    );
  }

  /** Notes that this process runs `jobId`, so another hands it out again if this one dies. */
  private async claim(jobId: string, queue: string): Promise<void> {
    try {
      await this.database.db
        .insert(jobRuns)
        .values({ jobId, queue, processId: this.processId })
        .onConflictDoUpdate({ target: jobRuns.jobId, set: { processId: this.processId, startedAt: sql`now()` } });
    } catch (error) {
      // Advisory: without the note the job still runs, and its expiry still covers a crash.
      this.options.log.warn({ err: error, jobId }, 'could not note a job run');
    }
  }

  /**
   * Asks this process's workers for `name` to look for due jobs now instead of at its next poll,
   * starting them if this is the queue's first due job here: a queue that never has work costs
   * no worker and no fetch.
   */
  wake(name: JobName): void {
    if (!this.started || !this.options.runWorkers) return;
    const running = this.workers.get(name);
    if (running) {
      void running.then((ids) => ids.forEach((id) => this.boss.notifyWorker(id)));
      return;
    }
    const definition = this.definitions.get(name);
    if (!definition) return;
    const starting = this.startWorkers(definition);
    this.workers.set(name, starting);
    starting.catch((error: unknown) => {
      // A later due check or wake tries again.
      if (this.workers.get(name) === starting) this.workers.delete(name);
      if (this.started) this.options.log.error({ err: error, job: name }, 'could not start the workers of a job queue');
    });
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.dueCheck) clearTimeout(this.dueCheck);
    // Workers still being started (a wake just before the stop) are in place before pg-boss stops
    // its workers, so it stops them too and waits for their runs.
    await Promise.allSettled([...this.workers.values()]);
    // Waits for runs in progress; what is left is failed back to the queue and retried.
    await this.boss.stop({ graceful: true, close: false, wait: true, timeout: 10_000 });
    // pg-boss's stop does not wait for a fetch in flight (whose job then runs), nor for the
    // statement that marks a run complete or failed, which it does not await: the caller would
    // close the database under them, and their rejections would go unhandled. Wait for both.
    const patience = Date.now() + STOP_PATIENCE_MS;
    const inFlight = () => [...this.bossStatements, ...this.runs];
    while (inFlight().length > 0 && Date.now() < patience) await Promise.race([Promise.allSettled(inFlight()), setTimeoutPromise(100)]);
    if (this.options.runWorkers) await this.database.db.delete(jobProcesses).where(eq(jobProcesses.id, this.processId)).catch(() => undefined);
  }

  /** `work`, held in `set` until it settles. */
  private tracked<T>(set: Set<Promise<unknown>>, work: Promise<T>): Promise<T> {
    set.add(work);
    const forget = () => void set.delete(work);
    work.then(forget, forget);
    return work;
  }

  /**
   * Says this process is alive, and hands out again the jobs of processes that stopped beating:
   * their runs are made due at once (pg-boss would otherwise wait out each job's expiry, up to
   * minutes). Handlers are idempotent, so a process that was only frozen and wakes up to finish
   * its job harms nothing. Every process sweeps; the deletes make each orphan handed out once.
   */
  private async beat(): Promise<void> {
    try {
      const silentFor = 3 * (this.options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS);
      const requeued = await this.database.db.transaction(async (tx) => {
        // An upsert: a process frozen long enough to be taken for dead comes back under its own id.
        await tx.insert(jobProcesses).values({ id: this.processId }).onConflictDoUpdate({ target: jobProcesses.id, set: { seenAt: sql`now()` } });
        const silent = sql`${jobProcesses.seenAt} < now() - make_interval(secs => ${silentFor})`;
        const orphans = await tx
          .delete(jobRuns)
          .where(sql`${jobRuns.processId} in (select ${jobProcesses.id} from ${jobProcesses} where ${silent})`)
          .returning({ jobId: jobRuns.jobId, queue: jobRuns.queue });
        await tx.delete(jobProcesses).where(silent);
        if (orphans.length > 0) {
          await tx.execute(
            sql`update ${sql.raw(BOSS_SCHEMA)}.job set state = 'retry', start_after = now() where state = 'active' and id in (${sql.join(
              orphans.map((o) => sql`${o.jobId}::uuid`),
              sql`, `,
            )})`,
          );
        }
        // A process killed between pg-boss handing it a job and its note of the run leaves an
        // active job nobody claims: one active that long without a note is handed out again too.
        const unclaimed = await tx.execute<{ name: string }>(sql`
          update ${sql.raw(BOSS_SCHEMA)}.job j set state = 'retry', start_after = now()
          where j.state = 'active' and j.started_on < now() - make_interval(secs => ${silentFor})
            and not exists (select 1 from ${jobRuns} r where r.job_id = j.id)
          returning j.name`);
        const unclaimedRows = (Array.isArray(unclaimed) ? unclaimed : (unclaimed as unknown as { rows: { name: string }[] }).rows) as { name: string }[];
        return [...orphans, ...unclaimedRows.map((row) => ({ jobId: '', queue: row.name }))];
      });
      if (requeued.length === 0) return;
      this.options.log.warn({ jobs: requeued.length }, 'jobs held by a process that stopped were handed out again');
      for (const queue of new Set(requeued.map((o) => o.queue))) this.wake(queue as JobName);
    } catch (error) {
      this.options.log.warn({ err: error }, 'job heartbeat failed');
    }
  }

}
