import { createHash, randomBytes } from 'node:crypto';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { isRunning, MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { seedIfEmpty } from '../../db/seed/seed.ts';

export interface TestDatabase extends DatabaseHandle {
  /** The URL of the database created for this test file (PostgreSQL only). */
  url: string | null;
}

/**
 * A migrated, seeded database for one test file: an embedded PGlite of its own by default, or a
 * fresh PostgreSQL database created on the server in DATABASE_URL and dropped on close.
 */
export async function createTestDatabase(options: { seed?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  let url: string | null = null;
  let dataDir: string;
  let drop = async () => {};
  if (serverUrl) {
    const name = `lm_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    ({ url, drop } = await createPostgresDatabase(serverUrl, name, await migratedPostgresTemplate(serverUrl)));
    dataDir = 'memory://';
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'lm-testdb-'));
    await copyMigratedEmbeddedDatabase(dataDir);
    drop = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  const handle = await openDatabase({ databaseUrl: url, dataDir, poolSize: 10 });
  // Nothing left to apply on a copy of the migrated folder; still asked, as a server start would.
  await handle.migrate();
  if (options.seed !== false) await seedIfEmpty(handle.db);
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      await drop();
    },
  };
}

/**
 * Creates the database `name` on the PostgreSQL server at `serverUrl`, empty or as a copy of
 * `template`; `drop` removes it again.
 */
export async function createPostgresDatabase(serverUrl: string, name: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await whileInUse(() => admin.unsafe(`create database "${name}"${template ? ` template "${template}"` : ''}`));
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}

/** Runs `statement` again while PostgreSQL says a database it needs is still in use (55006), for up to 10 s. */
async function whileInUse<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

// ── A migrated starting point ───────────────────────────────────────────────────────────────
// Migrating a new database takes a while on PostgreSQL (a second or so), and creating an embedded
// one runs PostgreSQL's initdb inside PGlite: 5 to 15 s of one core. Both are paid by every test
// file, and what they produce is the same each time, so it is made once per set of migrations (and
// PGlite release) and each database starts as a copy of it (a fraction of a second). Seeding still
// happens per database, as before: the sample auctions end relative to the moment they are seeded.

/** An arbitrary constant: the lock under which one test process builds the PostgreSQL template. */
const TEMPLATE_LOCK_ID = 7_341_077;

let postgresTemplate: Promise<string> | null = null;

/** The name of a migrated database on the server at `serverUrl` to copy test databases from. */
function migratedPostgresTemplate(serverUrl: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `lm_template_${templateKey()}`;
    // Test files start two at a time: one builds the template while the other waits for the lock.
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      await admin`select pg_advisory_lock(${TEMPLATE_LOCK_ID})`;
      const [found] = await admin`select 1 as found from pg_database where datname = ${name}`;
      if (!found) {
        // Built under another name and renamed once migrated: a half-built template is never used.
        const building = `lm_template_building_${process.pid}`;
        await admin.unsafe(`drop database if exists "${building}" with (force)`);
        await admin.unsafe(`create database "${building}"`);
        const url = new URL(serverUrl);
        url.pathname = `/${building}`;
        const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://', poolSize: 1 });
        try {
          await database.migrate();
          await createJobQueues(database);
        } finally {
          await database.close();
        }
        // The migration's connections may take a moment to leave the server.
        await whileInUse(() => admin.unsafe(`alter database "${building}" rename to "${name}"`));
      }
      await admin`select pg_advisory_unlock(${TEMPLATE_LOCK_ID})`;
    } finally {
      await admin.end();
    }
    return name;
  })();
  return postgresTemplate;
}

// ── The embedded database's starting point ──────────────────────────────────────────────────

const TEMPLATE_ROOT = join(tmpdir(), 'lm-pglite-templates');
/** Written into a template folder last: a folder without it is unfinished. */
const COMPLETE = 'complete';

/**
 * Makes the migrated starting point for this run's databases (PostgreSQL's with DATABASE_URL,
 * the embedded one's otherwise) if it is not there yet: the global setup calls it, so that no
 * test file waits for it inside its own time limits.
 */
export async function prepareDatabaseTemplate(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) await migratedPostgresTemplate(serverUrl);
  else await migratedTemplate();
}

/** Puts a migrated, empty embedded database into `dataDir` (the layout `openDatabase` expects there). */
export async function copyMigratedEmbeddedDatabase(dataDir: string): Promise<void> {
  const template = await migratedTemplate();
  cpSync(join(template, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}

let templatePath: Promise<string> | null = null;

function migratedTemplate(): Promise<string> {
  templatePath ??= (async () => {
    const path = join(TEMPLATE_ROOT, templateKey());
    if (!existsSync(join(path, COMPLETE))) await buildTemplate(path);
    return path;
  })();
  return templatePath;
}

/**
 * The job queue's tables and one partition per queue, as the app's first start creates them
 * (about a hundred statements of DDL): made once here rather than in every test database. A
 * queue added or changed since is still created or updated when an app starts on a copy.
 */
async function createJobQueues(database: DatabaseHandle): Promise<void> {
  // Loaded here: building the app needs the whole server, which only the template build uses.
  const [{ buildApp }, { loadConfig }] = await Promise.all([import('../../server/src/app.ts'), import('../../server/src/config.ts')]);
  const dataDir = mkdtempSync(join(tmpdir(), 'lm-template-app-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SERVE_CLIENT: 'false', DATABASE_URL: '', REDIS_URL: '' });
  const app = await buildApp(config, { database });
  try {
    await app.jobs.createQueues();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What the migrated starting point depends on: the migrations and the PGlite and pg-boss releases. */
function templateKey(): string {
  const hash = createHash('sha256');
  for (const dependency of ['@electric-sql/pglite', 'pg-boss']) hash.update(`${dependency} ${packageVersion(dependency)}\n`);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(`${full.slice(MIGRATIONS_FOLDER.length)}\n`).update(readFileSync(full));
    }
  };
  walk(MIGRATIONS_FOLDER);
  return hash.digest('hex').slice(0, 16);
}

function packageVersion(name: string): string {
  const entry = createRequire(import.meta.url).resolve(name);
  const root = entry.slice(0, entry.lastIndexOf(`/node_modules/${name}/`) + `/node_modules/${name}/`.length);
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Builds the template at `path`. Test files start two at a time, so the first one builds it
 * (under a lock file) while the other waits for it; a lock left by a process that died is taken
 * over.
 */
async function buildTemplate(path: string): Promise<void> {
  mkdirSync(TEMPLATE_ROOT, { recursive: true });
  const lockFile = `${path}.lock`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (existsSync(join(path, COMPLETE))) return;
    let fd: number | null = null;
    try {
      fd = openSync(lockFile, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (fd !== null) {
      writeSync(fd, String(process.pid));
      closeSync(fd);
      try {
        if (!existsSync(join(path, COMPLETE))) await runBuild(path);
      } finally {
        rmSync(lockFile, { force: true });
      }
      return;
    }
    const owner = Number(readFileSync(lockFile, 'utf8').trim() || '0');
    if (owner > 0 && !isRunning(owner)) rmSync(lockFile, { force: true });
    if (Date.now() > deadline) throw new Error(`waited too long for the embedded database template at ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Migrates a new embedded database in a folder of its own, then moves the folder into place whole. */
async function runBuild(path: string): Promise<void> {
  const building = mkdtempSync(`${path}.building-`);
  try {
    const database = await openDatabase({ databaseUrl: null, dataDir: building });
    try {
      await database.migrate();
      await createJobQueues(database);
    } finally {
      await database.close();
    }
    writeFileSync(join(building, COMPLETE), new Date().toISOString());
    rmSync(path, { recursive: true, force: true });
    renameSync(building, path);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
}

