/**
 * `npm run bench:start`: how long `npm start` takes to be ready on an existing embedded database.
 *
 *   npm run bench:start -- [--runs 5] [--tsx | --compare]
 *
 * Prepares a data folder with one start that is not counted (it creates, migrates and seeds the
 * database), then starts the server --runs times as `npm start` does (`node server/run.mjs
 * start`, the server build already current) and reports, for each start, the wall time from
 * spawning the process to its "ready" log line and the CPU time the process had used by then.
 * The CPU time moves less with other work on the machine than the wall time does. --tsx
 * measures the TypeScript sources run through tsx instead, as `npm start` used to; --compare
 * alternates both, start by start, so that both see the same load.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClientBuild } from '../../server/src/lib/client-build.ts';
import { freePort } from '../helpers/app.ts';
import { benchArgs } from '../helpers/bench.ts';

const values = benchArgs('Usage: npm run bench:start -- [--runs 5] [--tsx | --compare]', {
  runs: { type: 'string', default: '5' },
  tsx: { type: 'boolean', default: false },
  compare: { type: 'boolean', default: false },
});
const RUNS = Number(values.runs);
const COMMANDS = {
  'compiled (server/dist)': ['server/run.mjs', 'start'],
  'tsx on the sources': ['--import', 'tsx', 'server/src/cli/start.ts'],
};
type Variant = keyof typeof COMMANDS;
const variants: Variant[] = values.compare ? ['compiled (server/dist)', 'tsx on the sources'] : [values.tsx ? 'tsx on the sources' : 'compiled (server/dist)'];
// Linux counts process CPU time in clock ticks of 1/100 s.
const TICK_MS = 10;

/** User + system CPU time of a running process so far, from /proc (null elsewhere). */
function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

async function startOnce(dataDir: string, variant: Variant): Promise<{ wallMs: number; cpuMs: number | null }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, COMMANDS[variant], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '', LOG_PRETTY: 'false' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    return await new Promise((resolve, reject) => {
      let output = '';
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('LuxeMotors is ready')) resolve({ wallMs: performance.now() - started, cpuMs: cpuMs(child.pid!) });
      });
      child.once('exit', (code) => reject(new Error(`the server exited with ${code} before it was ready:\n${output}`)));
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const summary = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return `min ${Math.round(sorted[0]!)} ms, median ${Math.round(sorted[Math.floor(sorted.length / 2)]!)} ms, max ${Math.round(sorted.at(-1)!)} ms`;
};

ensureClientBuild();
const dataDir = mkdtempSync(join(tmpdir(), 'lm-start-bench-'));
try {
  console.log(`Preparing a data folder (not counted): ${dataDir}`);
  // The compiled start also builds server/dist here if it is stale, so no counted start does.
  await startOnce(dataDir, 'compiled (server/dist)');
  const results = new Map(variants.map((variant) => [variant, { walls: [] as number[], cpus: [] as number[] }]));
  for (let run = 1; run <= RUNS; run++) {
    for (const variant of variants) {
      const result = await startOnce(dataDir, variant);
      results.get(variant)!.walls.push(result.wallMs);
      if (result.cpuMs !== null) results.get(variant)!.cpus.push(result.cpuMs);
      console.log(`start ${run}, ${variant}: ready after ${Math.round(result.wallMs)} ms${result.cpuMs === null ? '' : `, ${result.cpuMs} ms of CPU`}`);
    }
  }
  for (const [variant, { walls, cpus }] of results) {
    console.log(`\n${variant}, ${RUNS} starts on an existing embedded database`);
    console.log(`  wall time to ready: ${summary(walls)}`);
    if (cpus.length > 0) console.log(`  CPU time to ready:  ${summary(cpus)}`);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
