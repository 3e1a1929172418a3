import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestampNow } from './columns.ts';

/**
 * The job runner's heartbeat: every process that runs jobs keeps a row here fresh, and notes
 * each job it is running. A process that stops beating (killed, frozen, cut off) is presumed
 * dead; the jobs it held are handed out again at once instead of waiting out their expiry.
 */
export const jobProcesses = pgTable('job_processes', {
  id: uuid().primaryKey(),
  startedAt: timestampNow(),
  seenAt: timestampNow(),
});

export const jobRuns = pgTable(
  'job_runs',
  {
    /** The pg-boss job's id. */
    jobId: uuid().primaryKey(),
    queue: text().notNull(),
    processId: uuid()
      .notNull()
      .references(() => jobProcesses.id, { onDelete: 'cascade' }),
    startedAt: timestampNow(),
  },
  (t) => [index('job_runs_process_idx').on(t.processId)],
);

/**
 * Mail the SMTP server has taken, by Message-ID: a mail job run again (its process killed after
 * the send, before the job was marked done) finds its mail here and does not send it twice.
 * Rows older than the outbox's longest retry are pruned.
 */
export const mailDeliveries = pgTable(
  'mail_deliveries',
  {
    messageId: text().primaryKey(),
    deliveredAt: timestampNow(),
  },
  (t) => [index('mail_deliveries_delivered_at_idx').on(t.deliveredAt)],
);
