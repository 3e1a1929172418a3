/**
 * `npm run bench:audit`: what the audit log's hash chain costs.
 *
 *   npm run bench:audit -- [--entries 5000] [--writers 8]      (DATABASE_URL set: on PostgreSQL)
 *
 * Appends `entries` audit entries from `writers` concurrent transactions (each entry in its own
 * transaction, as a console action writes it), then recomputes the whole chain as
 * `npm run audit:verify` does, and checks it is intact.
 */
import { performance } from 'node:perf_hooks';
import { recordAudit, verifyAuditChain } from '../../server/src/services/audit.ts';
import { benchArgs } from '../helpers/bench.ts';
import { createTestDatabase } from '../helpers/database.ts';

const values = benchArgs('Usage: npm run bench:audit -- [--entries 5000] [--writers 8]', {
  entries: { type: 'string', default: '5000' },
  writers: { type: 'string', default: '8' },
});
const ENTRIES = Number(values.entries);
const WRITERS = Number(values.writers);

const database = await createTestDatabase({ seed: false });
try {
  let next = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < ENTRIES) {
        const n = next++;
        const t0 = performance.now();
        await database.db.transaction((tx) =>
          recordAudit(tx, {
            actor: { userId: 1 + (n % 5), email: `operator${n % 5}@example.com` },
            action: 'car.hide',
            targetType: 'car',
            targetId: 1 + n,
            reason: `Bench entry ${n}`,
            before: { status: 'active' },
            after: { status: 'hidden' },
          }),
        );
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const appendMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  const verifyStarted = performance.now();
  const check = await verifyAuditChain(database.db);
  const verifyMs = performance.now() - verifyStarted;
  console.log(`database: ${database.url ? 'PostgreSQL' : 'embedded (PGlite)'}`);
  console.log(`appended ${ENTRIES} entries with ${WRITERS} writers in ${(appendMs / 1000).toFixed(2)} s: ${Math.round(ENTRIES / (appendMs / 1000))} entries/s; per transaction p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  console.log(`verified ${check.count} entries in ${verifyMs.toFixed(0)} ms (${Math.round(check.count / (verifyMs / 1000))} entries/s): ${check.ok ? 'intact' : `broken at #${check.entryId}`}`);
  if (!check.ok || check.count !== ENTRIES) process.exitCode = 1;
} finally {
  await database.close();
}
