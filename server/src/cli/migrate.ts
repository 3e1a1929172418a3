/** `npm run db:migrate`: applies pending migrations (the server also does this at start). */
import { openDatabase } from '../../../db/client.ts';
import { loadConfig } from '../config.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
try {
  await database.migrate();
  console.log('Migrations applied.');
} finally {
  await database.close();
}
