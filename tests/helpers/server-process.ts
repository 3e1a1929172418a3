import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './app.ts';
import { TEST_SERVER_SETTINGS } from './test-settings.ts';
import { waitUntil, type ClientSocket } from './sockets.ts';

export interface ServerProcess {
  url: string;
  process: ChildProcess;
  /** Resolves when the process has exited (after a kill, or by itself). */
  exited: Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the server as production does, in a process of its own, and waits until it answers.
 * `env` adds to (and overrides) a quiet, client-less configuration on a free port.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: {
    port?: number;
    /** Receives each line the server writes to standard output (its JSON log) instead of the terminal. */
    onLogLine?: (line: string) => void;
  } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  // The compiled server, through the launcher `npm start` uses (global-setup.ts built it).
  const settings: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: url,
    SERVE_CLIENT: 'false',
    LOG_LEVEL: 'warn',
    // One process unless a test asks for more: with DATABASE_URL and REDIS_URL the default
    // would be one per core.
    WEB_CONCURRENCY: '1',
    ...TEST_SERVER_SETTINGS,
    ...env,
  };
  const workers = Number(settings.WEB_CONCURRENCY);
  const child = spawn(process.execPath, ['server/run.mjs', 'start'], {
    env: settings,
    stdio: ['ignore', options.onLogLine ? 'pipe' : 'inherit', 'inherit'],
  });
  if (options.onLogLine && child.stdout) createInterface({ input: child.stdout }).on('line', options.onLogLine);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  await waitUntil(
    async () => {
      if (gone) throw new Error(`the server process on port ${port} exited while starting`);
      if ((await fetch(`${url}/api/health`).catch(() => null))?.ok !== true) return false;
      // The primary hands connections only to workers that listen: until all do, every
      // connection lands on the first one ready, which a test of several workers must not see.
      if (workers <= 1) return true;
      const metrics = await fetch(`${url}/metrics`).then((r) => (r.ok ? r.text() : ''), () => '');
      return (metrics.match(/^cluster_worker_info\{/gm)?.length ?? 0) === workers;
    },
    60_000,
    `the server process on port ${port} to start`,
  );
  return {
    url,
    process: child,
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * The server processes one test file starts, so that `killAll` can end whatever is left running,
 * and with `closeAll` also what the file opened around them.
 */
export class ServerProcesses {
  private readonly started: ServerProcess[] = [];
  /** Sockets connected to these servers: `closeAll` closes them before the servers stop. */
  readonly sockets: ClientSocket[] = [];
  private readonly cleanups: (() => Promise<void>)[] = [];

  /**
   * Something `closeAll` undoes once the servers are gone, newest first: a database they used
   * can only be dropped when nothing is connected to it.
   */
  afterKill(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** The sockets, then every server (SIGKILL), then the `afterKill` cleanups. */
  async closeAll(): Promise<void> {
    for (const socket of this.sockets) socket.close();
    await this.killAll();
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup();
  }

  async start(env: Record<string, string>, options: Parameters<typeof startServerProcess>[1] = {}): Promise<ServerProcess> {
    const server = await startServerProcess(env, options);
    this.started.push(server);
    return server;
  }

  /** Two processes on one configuration (a shared database), each with a data folder of its own. */
  startPair(env: Record<string, string>, label: string): Promise<[ServerProcess, ServerProcess]> {
    const own = (name: string) => this.start({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), `lm-${label}-${name}-`)) });
    return Promise.all([own('a'), own('b')]);
  }

  async killAll(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    for (const server of this.started) await server.kill(signal);
  }
}

/**
 * Whether a file's two-process case can run here: processes share state only through PostgreSQL
 * and Redis (DATABASE_URL and REDIS_URL). Says so when it is skipped.
 */
export function canRunTwoProcesses(file: string): boolean {
  const can = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
  if (!can) console.log(`[${file}] two-process case skipped: needs DATABASE_URL and REDIS_URL; .ci/run sets both for its second pass.`);
  return can;
}
