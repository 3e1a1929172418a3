import { ensureClientBuild } from '../../server/src/lib/client-build.ts';
import { ensureServerBuild } from '../../server/build.mjs';
import { answeredCodesWanted, answeredInRun } from './answered-codes.ts';
import { prepareDatabaseTemplate } from './database.ts';

/**
 * Tests that start the server as a process run the compiled server, as `npm start` does: build
 * it when its sources changed (a fraction of a second). Browser tests and the SPA fallback test
 * serve the built web app, so make sure it is current too; SKIP_CLIENT_BUILD=1 skips that when
 * running server tests while the client is mid-edit. The test databases' migrated starting point
 * is made here too, once, before any file needs it. With ANSWERED_CODES_DIR set, the run ends
 * with the declared failure codes no test provoked (answered-codes.ts).
 */
export default async function setup(): Promise<() => Promise<void>> {
  await ensureServerBuild((message: string) => console.log(`[test setup] ${message}`));
  if (process.env.SKIP_CLIENT_BUILD !== '1') ensureClientBuild((message) => console.log(`[test setup] ${message}`));
  await prepareDatabaseTemplate();
  return reportUnprovoked;
}

/** `GET /api/cars/{id} 404 NOT_FOUND` for every code the document declares that no app answered. */
async function reportUnprovoked(): Promise<void> {
  if (!answeredCodesWanted) return;
  const answered = answeredInRun();
  // Imported here so that runs without the report do not load the server in the setup process.
  const { startTestApp } = await import('./app.ts');
  const t = await startTestApp();
  const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: { properties?: { code?: { enum?: string[] } } } }> }> }>>;
  };
  await t.close();
  const declared = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, { responses }]) =>
      Object.entries(responses).flatMap(([status, response]) =>
        (Number(status) < 400 ? [] : (response.content?.['application/json']?.schema?.properties?.code?.enum ?? [])).map((code) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')} ${status} ${code}`),
      ),
    ),
  );
  const unprovoked = declared.filter((entry) => !answered.has(entry));
  console.log(`[answered codes] ${declared.length - unprovoked.length} of ${declared.length} declared (route, status, code) answered by the tests; never provoked:\n${unprovoked.join('\n')}`);
}
