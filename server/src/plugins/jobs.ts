import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JobRunner } from '../jobs/job-runner.ts';

/**
 * The job runner, shared by every service. Jobs are defined while the app is built, the
 * workers start once it is ready and stop first when it closes.
 */
export default fp<{ maintenanceSeconds?: number }>(
  async function jobs(app: FastifyInstance, options) {
    const runner = new JobRunner(app.database, {
      log: app.log.child({ module: 'jobs' }),
      pollSeconds: app.config.jobs.pollSeconds,
      runWorkers: true,
      ...(options.maintenanceSeconds ? { maintenanceSeconds: options.maintenanceSeconds } : {}),
    });
    app.decorate('jobs', runner);
    app.addHook('onReady', () => runner.start());
    // Before anything closes: runs in progress finish while mail and the database are still open.
    app.addHook('preClose', () => runner.stop());
  },
  { name: 'jobs', dependencies: ['database'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}
