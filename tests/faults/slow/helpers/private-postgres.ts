import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { freePort } from '../../../helpers/app.ts';

const run = promisify(execFile);

/** Where Debian keeps the server binaries when they are not on PATH. */
const PG_BIN_DIRS = ['/usr/local/bin', '/usr/lib/postgresql/18/bin', '/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

function binary(name: 'initdb' | 'pg_ctl'): string | null {
  for (const dir of PG_BIN_DIRS) if (existsSync(join(dir, name))) return join(dir, name);
  return null;
}

/** Whether a PostgreSQL cluster of the test's own can be created on this machine. */
export function privatePostgresAvailable(): boolean {
  return binary('initdb') !== null && binary('pg_ctl') !== null;
}

/**
 * A PostgreSQL cluster of the test's own, in a temporary folder on a free port, that the test
 * can stop abruptly and start again: what a crashed or restarted database server looks like to
 * the app. The shared server on 5432 is never touched. PostgreSQL refuses to run as root, so as
 * root the cluster belongs to the `postgres` user.
 */
export class PrivatePostgres {
  private running = false;

  private constructor(
    readonly port: number,
    private readonly folder: string,
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const folder = mkdtempSync(join(tmpdir(), 'lm-fault-pg-'));
    const cluster = new PrivatePostgres(await freePort(), folder);
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(folder, Number(stdout.trim()), Number(gid.trim()));
    }
    // Trust on loopback only: the cluster lives for one test run and listens on 127.0.0.1.
    await cluster.pg(binary('initdb')!, ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await cluster.startAgain();
    const admin = postgres(cluster.adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe('create database luxemotors');
    await admin.end();
    return cluster;
  }

  private get dataDir(): string {
    return join(this.folder, 'data');
  }

  private get adminUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** The app's database on this cluster. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/luxemotors`;
  }

  /** Starts the cluster and returns once it accepts connections. */
  async startAgain(): Promise<void> {
    await this.pg(binary('pg_ctl')!, [
      '-D', this.dataDir,
      '-o', `-p ${this.port} -k ${this.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      '-l', join(this.folder, 'server.log'),
      '-w', '-t', '60',
      'start',
    ]);
    this.running = true;
  }

  /**
   * `immediate` ends every server process at once without a checkpoint, as a crash or a lost
   * host would: clients see their connections reset and new ones refused.
   */
  async stop(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.pg(binary('pg_ctl')!, ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
  }

  /** Stops the cluster and removes its files. */
  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => {});
    rmSync(this.folder, { recursive: true, force: true });
  }

  private async pg(command: string, args: string[]): Promise<void> {
    const asRoot = process.getuid?.() === 0;
    await run(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, { cwd: this.folder });
  }
}
