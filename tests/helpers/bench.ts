import type { ChildProcess } from 'node:child_process';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * What the bench scripts in tests/load share: their command line, their percentiles and tables,
 * where their data goes, and how they hear from their child processes.
 */

type Options = NonNullable<ParseArgsConfig['options']>;
const HELP = { help: { type: 'boolean', short: 'h', default: false } } as const;

/** A bench script's flags from the command line; `-h`/`--help` prints `usage` and exits. */
export function benchArgs<const T extends Options>(usage: string, options: T) {
  const { values } = parseArgs({ options: { ...options, ...HELP } });
  if ((values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}

/** A numeric flag's value, or a usage error (exit 2) when it is not a number from `min` to `max`. */
export function boundedArg(raw: string, name: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    console.error(`--${name} must be a number from ${min} to ${max}`);
    process.exit(2);
  }
  return value;
}

/** The `p`th percentile (0–100) of `list` by nearest rank; NaN for an empty list. */
export function percentile(list: number[], p: number): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** The head of a Markdown table of latencies, one `latencyRow` a measure. */
export const LATENCY_TABLE_HEAD = '| Measure | n | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|';

export const latencyRow = (name: string, list: number[]) =>
  `| ${name} | ${list.length} | ${percentile(list, 50).toFixed(0)} | ${percentile(list, 99).toFixed(0)} | ${Math.max(...list).toFixed(0)} |`;

/**
 * Where `serverDatabase` puts a bench run's data: with --postgres a new database on
 * BENCH_DATABASE_URL's server (default the local one), else the embedded database.
 */
export function chooseBenchDatabase(postgres: boolean | undefined): void {
  process.env.DATABASE_URL = postgres ? (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') : '';
}

/**
 * A bench's server process never outlives the bench: killed when the script exits, and an
 * uncaught error ends the script (and so the server) instead of leaving it half-measured.
 */
export function endWithBench(server: { process: { kill(signal: NodeJS.Signals): boolean } }): void {
  process.on('exit', () => server.process.kill('SIGKILL'));
  process.on('uncaughtException', (error) => {
    console.error(error);
    process.exit(1);
  });
}

/** Waits for the first message from `child` that `accept` takes, or fails after `timeoutMs`. */
export function nextMessage<T>(child: ChildProcess, accept: (message: unknown) => T | undefined, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', listener);
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const listener = (message: unknown) => {
      const value = accept(message);
      if (value === undefined) return;
      clearTimeout(timer);
      child.off('message', listener);
      resolve(value);
    };
    child.on('message', listener);
  });
}
