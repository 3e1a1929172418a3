/**
 * Runs one of the server's compiled entry points: `node server/run.mjs [start|escrow|migrate|seed]
 * [arguments]` (what `npm start`, `npm run escrow`, `npm run db:migrate` and `npm run db:seed`
 * call). The server is built first when server/dist is missing or older than its sources, so
 * a fresh clone needs only `npm install`; otherwise this costs a few milliseconds of file times.
 */
import { pathToFileURL } from 'node:url';
import { ENTRY_POINTS, ensureServerBuild, outputOf } from './build.mjs';

// Without an argument: start. A process forked from this one (a cluster worker) runs this file
// again with the arguments left after the splice below, that is none.
const entry = process.argv[2] ?? 'start';
if (!Object.hasOwn(ENTRY_POINTS, entry)) {
  console.error(`Usage: node server/run.mjs <${Object.keys(ENTRY_POINTS).join('|')}> [arguments]`);
  process.exit(2);
}
try {
  await ensureServerBuild();
} catch (error) {
  console.error(`The server failed to build: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
// The entry point reads its own arguments from argv[2] on, as when run directly.
if (process.argv.length > 2) process.argv.splice(2, 1);
// Stack traces then point into the TypeScript sources rather than the bundle.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(outputOf(entry)).href);
