/**
 * `npm run db:seed`                 empties the database and seeds the sample catalogue again.
 * `npm run db:seed -- --cars 100000` also adds that many generated cars (bulk inserts), for benchmarks.
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '../../../db/client.ts';
import { DEMO_SELLER_PASSWORD, SAMPLE_SELLER_EMAILS, reseed, seedGeneratedCars } from '../../../db/seed/seed.ts';
import { loadConfig } from '../config.ts';
import { hashPassword } from '../lib/passwords.ts';
import { createPhotoStorage } from '../services/photos/photo-storage.ts';

const { values } = parseArgs({
  options: {
    cars: { type: 'string' },
    'keep-existing': { type: 'boolean', default: false },
    'seller-password': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(`Usage: npm run db:seed -- [--cars N] [--keep-existing]

  (no options)      empty every table and seed the 12 sample cars, sellers, reviews and testimonials
  --cars N          then add N generated cars (up to 2,000,000)
  --keep-existing   skip the reset; only add the generated cars
  --seller-password P  password for the sample sellers' accounts (default: ${DEMO_SELLER_PASSWORD}
                    on the embedded database; none, so they cannot sign in, on PostgreSQL)`);
  process.exit(0);
}
const generated = values.cars === undefined ? 0 : Number(values.cars);
if (!Number.isInteger(generated) || generated < 0 || generated > 2_000_000) {
  console.error('--cars must be a whole number from 0 to 2,000,000');
  process.exit(1);
}

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
try {
  await database.migrate();
  if (!values['keep-existing']) {
    const sellerPassword = values['seller-password'] ?? (database.driver === 'pglite' ? DEMO_SELLER_PASSWORD : null);
    await reseed(database.db, { sellerPassword, hashPassword, documents: createPhotoStorage({ dataDir: config.dataDir, s3: config.photoBucket, folder: 'documents' }) });
    console.log('Seeded the sample catalogue.');
    if (sellerPassword) console.log(`Sample sellers can sign in with password ${sellerPassword}: ${SAMPLE_SELLER_EMAILS.join(', ')}`);
  }
  if (generated > 0) {
    const started = Date.now();
    let lastReport = 0;
    await seedGeneratedCars(database.db, generated, {
      onProgress: (inserted) => {
        if (inserted - lastReport >= 10_000 || inserted === generated) {
          lastReport = inserted;
          process.stdout.write(`\r  ${inserted.toLocaleString('en-US')} / ${generated.toLocaleString('en-US')} generated cars`);
        }
      },
    });
    console.log(`\nAdded ${generated.toLocaleString('en-US')} generated cars in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
} finally {
  await database.close();
}
