/**
 * Backups of the app's database as one self-describing file, the same for the embedded database
 * and PostgreSQL (a backup taken on one restores into the other):
 *
 *   line 1            header: format and version, the schema's migration level, created-at,
 *                     rows per table, identity sequences, pending jobs
 *   then per table    {"section":"table","name":...,"rows":N} and N rows, one JSON object a line
 *                     (PostgreSQL's own row_to_json: exact numbers, timestamps to the microsecond)
 *   then              {"section":"jobs",...}: the job queues and their pending jobs (pg-boss)
 *   last              {"section":"end",...}: a file cut short is refused
 *
 * The whole file is read in ONE repeatable-read, read-only transaction, so it is a consistent
 * snapshot while the app keeps serving. Tables come in foreign-key order, so a restore loads them
 * in file order with every constraint checked. A name ending in .gz is gzipped.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import { MIGRATIONS_FOLDER, rowsOf, type Database, type DatabaseHandle, type Executor } from './client.ts';

export const BACKUP_FORMAT = 'luxemotors-backup';
export const BACKUP_FORMAT_VERSION = 1;

/**
 * Left out: the heartbeats of the processes running jobs and the runs they hold. They describe
 * processes of the backed-up deployment, never of the one restored; a pending job is kept
 * (its run, if it was running, is handed out again: see the jobs section).
 */
const EXCLUDED_TABLES = ['job_processes', 'job_runs'];
/** Pending jobs (due work: escrow deadlines, payouts, refunds, mail). Finished ones are history. */
const PENDING_JOB_STATES = ['created', 'retry', 'active'];
const FETCH_ROWS = 1_000;
const BATCH_CHARS = 4 * 1024 * 1024;

export interface MigrationLevel {
  /** Position in db/migrations/meta/_journal.json (0-based); -1 when this code does not know it. */
  index: number;
  tag: string | null;
  /** sha256 of the migration's SQL, as drizzle records it in drizzle.__drizzle_migrations. */
  hash: string;
  /** The journal's `when`, drizzle's `created_at`: migrations apply in this order. */
  createdAt: number;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** The snapshot's time, by the database's clock. */
  createdAt: string;
  source: { serverVersion: string };
  migration: MigrationLevel;
  /** In the order they follow in the file (parents before the tables that refer to them). */
  tables: { name: string; rows: number }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  jobs: { schema: 'pgboss'; version: number | null; queues: number; jobs: number; states: string[] };
  excluded: string[];
}

export interface BackupSummary {
  file: string;
  bytes: number;
  milliseconds: number;
  header: BackupHeader;
}

/** A backup that must not be restored here, or a database it must not be restored into: the message says why. */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

interface JournalEntry {
  idx: number;
  tag: string;
  when: number;
}

function codeMigrations(): { meta: MigrationMeta[]; tags: string[] } {
  const journal = JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as { entries: JournalEntry[] };
  return { meta: readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }), tags: journal.entries.map((entry) => entry.tag) };
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function query(executor: Executor, text: string): Promise<Record<string, unknown>[]> {
  return rowsOf(await executor.execute(sql.raw(text)));
}

/** The last migration applied to the database, or null when none is. */
async function migrationLevelOf(executor: Executor): Promise<MigrationLevel | null> {
  const [present] = await query(executor, `select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!present?.present) return null;
  const [last] = await query(executor, 'select hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1');
  if (!last) return null;
  const createdAt = Number(last.created_at);
  const { meta, tags } = codeMigrations();
  const index = meta.findIndex((migration) => migration.folderMillis === createdAt);
  return { index, tag: index >= 0 ? tags[index]! : null, hash: String(last.hash), createdAt };
}

/** Public tables, parents before children (Kahn's algorithm; ties by name). */
async function tablesInForeignKeyOrder(executor: Executor): Promise<string[]> {
  const tables = (
    await query(
      executor,
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
    )
  ).map((row) => String(row.name));
  const edges = await query(
    executor,
    `select child.relname as child, parent.relname as parent from pg_constraint k
     join pg_class child on child.oid = k.conrelid join pg_namespace n on n.oid = child.relnamespace
     join pg_class parent on parent.oid = k.confrelid
     where k.contype = 'f' and n.nspname = 'public' and k.conrelid <> k.confrelid`,
  );
  const parentsOf = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const edge of edges) parentsOf.get(String(edge.child))?.add(String(edge.parent));
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((table) => !placed.has(table) && [...parentsOf.get(table)!].every((parent) => placed.has(parent) || !parentsOf.has(parent)));
    // A cycle of foreign keys (none in this schema): the rest in name order.
    const next = ready.length > 0 ? ready : tables.filter((table) => !placed.has(table));
    for (const table of next) {
      ordered.push(table);
      placed.add(table);
    }
  }
  return ordered;
}

async function primaryKeyOf(executor: Executor, qualified: string): Promise<string[]> {
  const rows = await query(
    executor,
    `select a.attname as name from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
     where i.indrelid = '${qualified.replace(/'/g, "''")}'::regclass and i.indisprimary order by array_position(i.indkey::int2[], a.attnum)`,
  );
  return rows.map((row) => String(row.name));
}

/** Writes lines to a file (gzipped when it ends in .gz), waiting when the disk falls behind. */
class LineWriter {
  private readonly file: Writable;
  private readonly out: Writable;
  constructor(path: string, gzip: boolean) {
    this.file = createWriteStream(path, { mode: 0o600 });
    if (gzip) {
      const zip = createGzip();
      zip.pipe(this.file);
      this.out = zip;
    } else {
      this.out = this.file;
    }
  }
  async write(text: string): Promise<void> {
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
  async close(): Promise<void> {
    const finished = once(this.file, 'close');
    this.out.end();
    await finished;
  }
  destroy(): void {
    this.out.destroy();
    this.file.destroy();
  }
}

/**
 * Writes a consistent backup of the database to `file` (through `file.partial`, renamed when
 * complete, so a backup that fails midway never replaces a good one). Safe while the app serves:
 * on PostgreSQL the snapshot holds no locks that stop writers; the embedded database, which
 * runs one statement at a time, makes the app's queries wait for the few moments it takes.
 */
export async function writeBackup(db: Database, file: string): Promise<BackupSummary> {
  const started = Date.now();
  const partial = `${file}.partial`;
  let header: BackupHeader | null = null;
  try {
    await db.transaction(
      async (tx) => {
        const [clock] = await query(tx, `select now() as now, version() as version`);
        const migration = await migrationLevelOf(tx);
        if (!migration) throw new BackupRefused('The database has no schema yet (no migration applied): there is nothing to back up.');
        const tableNames = (await tablesInForeignKeyOrder(tx)).filter((name) => !EXCLUDED_TABLES.includes(name));
        const tables: BackupHeader['tables'] = [];
        for (const name of tableNames) {
          const [counted] = await query(tx, `select count(*)::int as n from public.${ident(name)}`);
          tables.push({ name, rows: Number(counted!.n) });
        }
        const sequences: BackupHeader['sequences'] = [];
        const sequenceNames = await query(
          tx,
          `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
        );
        for (const { name } of sequenceNames) {
          // Sequences are not transactional: the value read here is at least that of any row in the snapshot.
          const [state] = await query(tx, `select last_value::text as v, is_called from public.${ident(String(name))}`);
          sequences.push({ name: String(name), lastValue: String(state!.v), isCalled: state!.is_called === true });
        }
        const [boss] = await query(tx, `select to_regclass('pgboss.job') is not null as present, to_regclass('pgboss.version') is not null as versioned`);
        let bossVersion: number | null = null;
        let queueRows: string[] = [];
        let jobRows: string[] = [];
        if (boss?.present) {
          if (boss.versioned) bossVersion = Number((await query(tx, 'select version from pgboss.version limit 1'))[0]?.version ?? null);
          queueRows = (await query(tx, 'select row_to_json(q)::text as r from pgboss.queue q order by q.name')).map((row) => String(row.r));
          const states = PENDING_JOB_STATES.map((state) => `'${state}'`).join(', ');
          jobRows = (await query(tx, `select row_to_json(j)::text as r from pgboss.job j where j.state in (${states}) order by j.created_on, j.id`)).map((row) => String(row.r));
        }
        header = {
          format: BACKUP_FORMAT,
          formatVersion: BACKUP_FORMAT_VERSION,
          createdAt: new Date(clock!.now as string | Date).toISOString(),
          source: { serverVersion: String(clock!.version) },
          migration,
          tables,
          sequences,
          jobs: { schema: 'pgboss', version: bossVersion, queues: queueRows.length, jobs: jobRows.length, states: PENDING_JOB_STATES },
          excluded: EXCLUDED_TABLES,
        };

        const writer = new LineWriter(partial, file.endsWith('.gz'));
        try {
          await writer.write(`${JSON.stringify(header)}\n`);
          let total = 0;
          for (const table of tables) {
            const qualified = `public.${ident(table.name)}`;
            await writer.write(`${JSON.stringify({ section: 'table', name: table.name, rows: table.rows })}\n`);
            const key = await primaryKeyOf(tx, qualified);
            const orderBy = key.length > 0 ? ` order by ${key.map((column) => `t.${ident(column)}`).join(', ')}` : '';
            await query(tx, `declare backup_rows no scroll cursor for select row_to_json(t)::text as r from ${qualified} t${orderBy}`);
            let written = 0;
            for (;;) {
              const rows = await query(tx, `fetch ${FETCH_ROWS} from backup_rows`);
              if (rows.length === 0) break;
              written += rows.length;
              await writer.write(`${rows.map((row) => String(row.r)).join('\n')}\n`);
            }
            await query(tx, 'close backup_rows');
            if (written !== table.rows) throw new Error(`${table.name}: counted ${table.rows} rows but read ${written} in the same snapshot`);
            total += written;
          }
          await writer.write(`${JSON.stringify({ section: 'jobs', schema: 'pgboss', queues: queueRows.length, jobs: jobRows.length })}\n`);
          for (const row of [...queueRows, ...jobRows]) await writer.write(`${row}\n`);
          await writer.write(`${JSON.stringify({ section: 'end', tables: tables.length, rows: total })}\n`);
          await writer.close();
        } catch (error) {
          writer.destroy();
          throw error;
        }
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  const { size } = statSync(file);
  return { file, bytes: size, milliseconds: Date.now() - started, header: header! };
}

/** Reads a backup file line by line. */
function openLines(file: string): AsyncIterableIterator<string> & { close(): void } {
  let input: Readable = createReadStream(file);
  if (file.endsWith('.gz')) input = input.pipe(createGunzip());
  const lines = createInterface({ input, crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  return Object.assign(iterator, {
    close() {
      lines.close();
      input.destroy();
    },
  });
}

/** The header of a backup file, checked to be one. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const lines = openLines(file);
  try {
    const first = await lines.next();
    return parseHeader(first.done ? '' : first.value);
  } finally {
    lines.close();
  }
}

function parseHeader(line: string): BackupHeader {
  let header: BackupHeader;
  try {
    header = JSON.parse(line) as BackupHeader;
  } catch {
    throw new BackupRefused('This is not a backup file (its first line is not a backup header).');
  }
  if (header?.format !== BACKUP_FORMAT) throw new BackupRefused('This is not a backup file of this app (its header names another format).');
  if (header.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupRefused(`The backup file is format ${header.formatVersion}, newer than this code reads (${BACKUP_FORMAT_VERSION}): restore it with the code that wrote it.`);
  }
  return header;
}

/** Where the backup's schema stands against this code's migrations; refuses what cannot be restored. */
export function checkBackupLevel(header: BackupHeader): { index: number; behind: number } {
  const { meta, tags } = codeMigrations();
  const level = header.migration;
  const last = meta.at(-1)!;
  const name = level.tag ?? `the migration of ${new Date(level.createdAt).toISOString()}`;
  if (level.createdAt > last.folderMillis) {
    throw new BackupRefused(
      `The backup's schema is newer than this code: it was taken at migration ${name}, and this code's last migration is ${tags.at(-1)}. ` +
        'Restore it with the version of the app that took it (or a newer one).',
    );
  }
  const index = meta.findIndex((migration) => migration.folderMillis === level.createdAt);
  if (index < 0) throw new BackupRefused(`The backup's schema is at migration ${name}, which this code's migrations do not contain.`);
  if (meta[index]!.hash !== level.hash) {
    throw new BackupRefused(`The backup's migration ${tags[index]} differs from this code's migration of the same name (another SQL text): restore it with the code that took it.`);
  }
  return { index, behind: meta.length - 1 - index };
}

/** Refuses a database that holds anything; answers whether it already has a schema. */
async function checkEmpty(db: Database, backupLevel: number): Promise<void> {
  const tables = (
    await query(db, `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`)
  ).map((row) => String(row.name));
  const level = await migrationLevelOf(db);
  if (level && (level.index < 0 || level.index > backupLevel)) {
    throw new BackupRefused(
      `The database is not empty: its schema is already at migration ${level.tag ?? level.createdAt}, past the backup's. Restore into a new, empty database (a new DATA_DIR, or createdb).`,
    );
  }
  const withRows: string[] = [];
  for (const table of tables) {
    const [row] = await query(db, `select exists (select 1 from public.${ident(table)}) as some`);
    if (row?.some) withRows.push(table);
  }
  if (withRows.length > 0) {
    const named = withRows.slice(0, 5).join(', ') + (withRows.length > 5 ? ` and ${withRows.length - 5} more` : '');
    throw new BackupRefused(
      `The database is not empty: ${named} ${withRows.length === 1 ? 'has' : 'have'} rows. A restore never mixes a backup with other data: ` +
        'restore into a new, empty database (a new DATA_DIR, or createdb), and start the server on it only afterwards.',
    );
  }
}

/** Applies this code's migrations up to and including `index` (all of them when omitted). */
async function migrateTo(handle: DatabaseHandle, index?: number): Promise<void> {
  const all = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const migrations = index === undefined ? all : all.slice(0, index + 1);
  // What drizzle's own migrator does, with a shorter list.
  const db = handle.db as unknown as { dialect: { migrate(m: MigrationMeta[], session: unknown, config: object): Promise<void> }; session: unknown };
  await handle.exclusive(() => db.dialect.migrate(migrations, db.session, { migrationsFolder: MIGRATIONS_FOLDER }));
}

export interface RestoreOptions {
  /**
   * Creates the job queue's own schema (pg-boss installs it at its start), so pending jobs can be
   * loaded; without it they are left out, and the summary says how many.
   */
  installJobSchema?: (handle: DatabaseHandle) => Promise<number>;
}

export interface RestoreSummary {
  header: BackupHeader;
  rows: number;
  jobs: number;
  /** Jobs the backup held that were not restored, with why. */
  jobsSkipped: { count: number; reason: string } | null;
  migratedForward: number;
  milliseconds: number;
}

/**
 * Restores a backup into an EMPTY database: brings its schema to the backup's migration level,
 * loads every row in one transaction (with the tables' own triggers off for that transaction
 * only, so the status guards and the append-only audit log take rows as they were; foreign keys
 * and every other constraint stay checked), sets the identity sequences past the restored ids,
 * then applies the migrations the backup predates.
 */
export async function restoreBackup(handle: DatabaseHandle, file: string, options: RestoreOptions = {}): Promise<RestoreSummary> {
  const started = Date.now();
  const header = await readBackupHeader(file);
  const { index, behind } = checkBackupLevel(header);
  await checkEmpty(handle.db, index);
  await migrateTo(handle, index);

  let jobsSkipped: RestoreSummary['jobsSkipped'] = null;
  let installedVersion: number | null = null;
  if (header.jobs.jobs > 0 || header.jobs.queues > 0) {
    if (!options.installJobSchema) jobsSkipped = { count: header.jobs.jobs, reason: 'no job queue schema to load them into' };
    else {
      installedVersion = await options.installJobSchema(handle);
      if (header.jobs.version !== null && installedVersion !== header.jobs.version) {
        jobsSkipped = { count: header.jobs.jobs, reason: `the backup's job queue schema is version ${header.jobs.version}, this code's ${installedVersion}` };
      }
    }
  }

  let rows = 0;
  let jobs = 0;
  const lines = openLines(file);
  try {
    await lines.next(); // the header
    await handle.db.transaction(async (tx) => {
      const expected = new Map(header.tables.map((table) => [table.name, table.rows]));
      let section: { kind: 'table'; name: string; rows: number; columns: string; loaded: number } | { kind: 'jobs'; queues: number; jobs: number } | null = null;
      let batch: string[] = [];
      let batchChars = 0;
      let queuesSeen = 0;
      let ended = false;

      const flush = async () => {
        if (section?.kind !== 'table' || batch.length === 0) return;
        const qualified = `public.${ident(section.name)}`;
        await tx.execute(
          sql`${sql.raw(`insert into ${qualified} (${section.columns}) overriding system value select ${section.columns} from json_populate_recordset(null::${qualified}, `)}${`[${batch.join(',')}]`}${sql.raw('::json)')}`,
        );
        section.loaded += batch.length;
        batch = [];
        batchChars = 0;
      };
      const finishTable = async () => {
        if (section?.kind !== 'table') return;
        await flush();
        await query(tx, `alter table public.${ident(section.name)} enable trigger user`);
        if (section.loaded !== section.rows) throw new BackupRefused(`The backup file is damaged: table ${section.name} should hold ${section.rows} rows, the file has ${section.loaded}.`);
        rows += section.loaded;
      };

      const handleLine = async (line: string) => {
        if (line.startsWith('{"section":')) {
          await finishTable();
          const marker = JSON.parse(line) as { section: string; name?: string; rows?: number; queues?: number; jobs?: number };
          if (marker.section === 'table') {
            const name = marker.name!;
            if (expected.get(name) !== marker.rows) throw new BackupRefused(`The backup file is damaged: table ${name} does not match its header.`);
            expected.delete(name);
            const columns = await query(
              tx,
              `select attname as name from pg_attribute where attrelid = 'public.${ident(name).replace(/'/g, "''")}'::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
            );
            if (columns.length === 0) throw new BackupRefused(`The backup holds table ${name}, which the schema at its migration level does not have.`);
            // Off for this transaction only: the ALTER holds the table's lock until the commit.
            await query(tx, `alter table public.${ident(name)} disable trigger user`);
            section = { kind: 'table', name, rows: marker.rows!, columns: columns.map((column) => ident(String(column.name))).join(', '), loaded: 0 };
          } else if (marker.section === 'jobs') {
            section = { kind: 'jobs', queues: marker.queues ?? 0, jobs: marker.jobs ?? 0 };
          } else if (marker.section === 'end') {
            ended = true;
            section = null;
          }
          return;
        }
        if (section?.kind === 'table') {
          batch.push(line);
          batchChars += line.length;
          if (batch.length >= FETCH_ROWS || batchChars >= BATCH_CHARS) await flush();
        } else if (section?.kind === 'jobs' && !jobsSkipped && installedVersion !== null) {
          if (queuesSeen < section.queues) {
            queuesSeen += 1;
            await restoreQueue(tx, JSON.parse(line) as Record<string, unknown>);
          } else {
            await tx.execute(sql`insert into pgboss.job select * from json_populate_record(null::pgboss.job, ${line}::json)`);
            jobs += 1;
          }
        }
      };
      // A line is loaded once the next one is read: a file cut short ends in a partial line,
      // which must be reported as such, never sent to the database.
      let previous: string | null = null;
      for await (const line of lines) {
        if (line === '') continue;
        if (previous !== null) await handleLine(previous);
        previous = line;
      }
      if (previous !== null && previous.startsWith('{"section":"end"')) await handleLine(previous);
      else await finishTable().catch(() => {});
      if (!ended) throw new BackupRefused('The backup file is incomplete (it ends before its last line): it was cut short while being written or copied.');
      if (expected.size > 0) throw new BackupRefused(`The backup file is damaged: tables ${[...expected.keys()].join(', ')} are missing.`);
      // A job that was running when the snapshot was taken runs again (handlers are idempotent).
      if (jobs > 0) await query(tx, `update pgboss.job set state = 'retry', started_on = null where state = 'active'`);
      for (const sequence of header.sequences) {
        await tx.execute(sql`select setval(${`public.${ident(sequence.name)}`}::regclass, ${sequence.lastValue}::bigint, ${sequence.isCalled})`);
      }
    });
  } finally {
    lines.close();
  }
  if (behind > 0) await migrateTo(handle);
  return { header, rows, jobs, jobsSkipped, migratedForward: behind, milliseconds: Date.now() - started };
}

/** Creates a job queue as the backup describes it (pg-boss's own function), unless it exists. */
async function restoreQueue(tx: Executor, queue: Record<string, unknown>): Promise<void> {
  const [existing] = await query(tx, `select 1 as one from pgboss.queue where name = '${String(queue.name).replace(/'/g, "''")}'`);
  if (existing) return;
  const options = {
    policy: queue.policy,
    retryLimit: queue.retry_limit,
    retryDelay: queue.retry_delay,
    retryBackoff: queue.retry_backoff,
    expireInSeconds: queue.expire_seconds,
    retentionMinutes: queue.retention_minutes,
    deadLetter: queue.dead_letter,
  };
  await tx.execute(sql`select pgboss.create_queue(${String(queue.name)}, ${JSON.stringify(options)}::json)`);
}

/** One line for the operator. */
export function describeBackup(summary: BackupSummary): string {
  const { header } = summary;
  const rows = header.tables.reduce((total, table) => total + table.rows, 0);
  return (
    `Backup written to ${summary.file}: ${(summary.bytes / 1024).toFixed(1)} KiB in ${summary.milliseconds} ms, ` +
    `${header.tables.length} tables, ${rows} rows, ${header.jobs.jobs} pending jobs, schema at ${header.migration.tag}, snapshot of ${header.createdAt}.`
  );
}
