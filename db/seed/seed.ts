import { count, eq, sql } from 'drizzle-orm';
import { carImagePath } from '@common/car-images.ts';
import { rowsOf, type Database, type Executor } from '../client.ts';
import { carDocuments, cars, dossierEntries, priceHistory, reviews, sellers, testimonials, users } from '../schema/index.ts';
import { SAMPLE_DOSSIERS } from './sample-dossiers.ts';
import { sampleInvoicePdf } from './sample-invoice.ts';
import { carSearchText } from '../search-text.ts';
import { SAMPLE_CARS, SAMPLE_REVIEWS, SAMPLE_SELLERS, SAMPLE_TESTIMONIALS } from './sample-data.ts';
import { generateCars, generateSellers } from './generator.ts';

const DAY_MS = 86_400_000;

export interface SeedOptions {
  /**
   * Password for the sample sellers' accounts, so the seller side can be tried locally. Null
   * creates the accounts without a password (they cannot sign in), which is what any shared
   * database should get.
   */
  sellerPassword?: string | null;
  /** Turns `sellerPassword` into the hash stored with the accounts: the caller's sign-in hashing. */
  hashPassword?: (password: string) => Promise<string>;
  now?: Date;
  /**
   * Where the sample service invoices (PDFs drawn by the seed) are stored: the app's document
   * storage. Without it the sample dossiers have no documents.
   */
  documents?: SeedDocumentStorage;
}

/** The part of the app's storage the seed writes sample documents to. */
export interface SeedDocumentStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
}

/** The password local (embedded-database) installs give the sample sellers. */
export const DEMO_SELLER_PASSWORD = 'Showroom#2024';

/** Seeds the sample catalogue when the database has no cars yet. Returns whether it seeded. */
export async function seedIfEmpty(db: Database, options: SeedOptions = {}): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(cars);
  if ((row?.n ?? 0) > 0) return false;
  const passwordHash = await sellerPasswordHash(options);
  await db.transaction((tx) => insertSampleData(tx, options.now ?? new Date(), passwordHash, options.documents));
  return true;
}

/** Empties every table and seeds the sample data again. */
export async function reseed(db: Database, options: SeedOptions = {}): Promise<void> {
  const passwordHash = await sellerPasswordHash(options);
  await db.transaction(async (tx) => {
    await truncateAll(tx);
    await insertSampleData(tx, options.now ?? new Date(), passwordHash, options.documents);
  });
}

async function sellerPasswordHash({ sellerPassword, hashPassword }: SeedOptions): Promise<string | null> {
  if (!sellerPassword) return null;
  if (!hashPassword) throw new Error('A seller password is stored only as a hash: pass hashPassword with it');
  return hashPassword(sellerPassword);
}

/** The sample sellers' sign-in addresses, for the start-up hint. */
export const SAMPLE_SELLER_EMAILS = SAMPLE_SELLERS.map((s) => s.email);

/** Empties every table but the audit log, which the database keeps append-only even here. */
export async function truncateAll(db: Executor): Promise<void> {
  const tables = await db.execute<{ tablename: string }>(
    sql`select tablename from pg_tables where schemaname = 'public' and tablename not like '\_\_%' and tablename <> 'audit_log'`,
  );
  const names = (rowsOf(tables) as { tablename: string }[]).map((r) => `"${r.tablename}"`).join(', ');
  if (names) await db.execute(sql.raw(`truncate ${names} restart identity cascade`));
}

async function insertSampleData(tx: Executor, now: Date, sellerPasswordHash: string | null, documents: SeedDocumentStorage | undefined): Promise<void> {
  const accounts = await tx
    .insert(users)
    .values(SAMPLE_SELLERS.map((s) => ({ email: s.email.toLowerCase(), name: s.name, passwordHash: sellerPasswordHash, emailVerified: true, location: s.location, bio: s.bio })))
    .returning({ id: users.id });
  const sellerRows = await tx
    .insert(sellers)
    .values(
      SAMPLE_SELLERS.map((s, i) => ({
        userId: accounts[i]!.id,
        name: s.name,
        rating: s.rating,
        verified: s.verified,
        location: s.location,
        bio: s.bio,
      })),
    )
    .returning({ id: sellers.id });
  const sellerIdByKey = new Map(SAMPLE_SELLERS.map((s, i) => [s.key, sellerRows[i]!.id]));

  const carRows = await tx
    .insert(cars)
    .values(
      SAMPLE_CARS.map((c) => {
        const sellerId = sellerIdByKey.get(c.sellerKey);
        if (sellerId === undefined) throw new Error(`Sample car ${c.key} names unknown seller ${c.sellerKey}`);
        const listedAt = new Date(now.getTime() - c.listedDaysAgo * DAY_MS);
        return {
          sellerId,
          make: c.make,
          model: c.model,
          year: c.year,
          price: c.price,
          marketValue: c.marketValue,
          marketValueBasis: 'reference' as const,
          mileage: c.mileage,
          condition: c.condition,
          bodyStyle: c.bodyStyle,
          color: c.colorHex,
          location: c.location,
          description: c.description,
          features: c.features,
          images: c.views.map((view) => carImagePath(c.bodyStyle, c.colorHex, view)),
          searchText: carSearchText(c),
          auctionEndsAt: c.auction ? new Date(now.getTime() + c.auction.endsInMinutes * 60_000) : null,
          auctionReservePrice: c.auction?.reservePrice ?? null,
          createdAt: listedAt,
          updatedAt: listedAt,
        };
      }),
    )
    .returning({ id: cars.id });
  const carIdByKey = new Map(SAMPLE_CARS.map((c, i) => [c.key, carRows[i]!.id]));
  for (const car of SAMPLE_CARS) await insertSampleDossier(tx, car, carIdByKey.get(car.key)!, now, documents);
  await tx.insert(priceHistory).values(SAMPLE_CARS.flatMap((c, i) => samplePriceHistory(c, carRows[i]!.id, now)));

  if (SAMPLE_REVIEWS.length > 0) {
    await tx.insert(reviews).values(
      SAMPLE_REVIEWS.map((r) => {
        const carId = carIdByKey.get(r.carKey);
        if (carId === undefined) throw new Error(`Sample review names unknown car ${r.carKey}`);
        return {
          carId,
          userName: r.reviewerName,
          rating: r.rating,
          comment: r.comment,
          verified: r.verified,
          createdAt: new Date(r.date),
        };
      }),
    );
  }

  await tx.insert(testimonials).values(
    SAMPLE_TESTIMONIALS.map((t) => ({
      customerName: t.customerName,
      customerImage: t.customerImage,
      rating: t.rating,
      comment: t.comment,
      carPurchased: t.carPurchased,
      location: t.location,
      purchaseAmount: t.purchaseAmount,
      verified: t.verified,
      createdAt: new Date(t.date),
    })),
  );
}

/**
 * Adds `total` generated cars (and sellers for them) in bulk, for benchmarks and load tests.
 * Deterministic for a given seed so runs are comparable.
 */
export async function seedGeneratedCars(
  db: Database,
  total: number,
  options: { seed?: number; batchSize?: number; onProgress?: (inserted: number) => void } = {},
): Promise<void> {
  const batchSize = options.batchSize ?? 2_000;
  const random = mulberry32(options.seed ?? 42);
  const sellerRows = await db
    .insert(sellers)
    .values(generateSellers(Math.max(10, Math.ceil(total / 500)), random))
    .returning({ id: sellers.id });
  const sellerIds = sellerRows.map((s) => s.id);
  for (let inserted = 0; inserted < total; inserted += batchSize) {
    const size = Math.min(batchSize, total - inserted);
    await db.insert(cars).values(generateCars(size, sellerIds, random));
    options.onProgress?.(inserted + size);
  }
  // Each car's history starts at its listing price.
  await db.execute(sql`insert into price_history (car_id, price, at) select id, price, created_at from cars where status <> 'draft'`);
  // Fresh statistics so the planner picks the listing indexes straight away.
  await db.execute(sql`analyze cars`);
}

/** Days a sample car waits before its seller cuts the price, so older listings show a price history. */
const SAMPLE_PRICE_CUT_AFTER_DAYS = 7;
const SAMPLE_PRICE_CUT_SHARE = 0.05;

/**
 * A sample car's price history: listed 14 days ago or more, it started about 5% higher and was
 * cut to today's price a week in; newer listings have only their listing price.
 */
function samplePriceHistory(car: (typeof SAMPLE_CARS)[number], carId: number, now: Date) {
  const listedAt = new Date(now.getTime() - car.listedDaysAgo * DAY_MS);
  if (car.auction || car.listedDaysAgo < 2 * SAMPLE_PRICE_CUT_AFTER_DAYS) return [{ carId, price: car.price, at: listedAt }];
  const askedFirst = Math.ceil((car.price * (1 + SAMPLE_PRICE_CUT_SHARE)) / 500) * 500;
  return [
    { carId, price: askedFirst, at: listedAt },
    { carId, price: car.price, at: new Date(listedAt.getTime() + SAMPLE_PRICE_CUT_AFTER_DAYS * DAY_MS) },
  ];
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A sample car's dossier: VIN, lists and service history, and an invoice PDF per record that has one. */
async function insertSampleDossier(tx: Executor, car: (typeof SAMPLE_CARS)[number], carId: number, now: Date, documents: SeedDocumentStorage | undefined): Promise<void> {
  const dossier = SAMPLE_DOSSIERS[car.key];
  if (!dossier) return;
  const listedAt = new Date(now.getTime() - car.listedDaysAgo * DAY_MS);
  await tx.update(cars).set({ vin: dossier.vin, dossierUpdatedAt: listedAt }).where(eq(cars.id, carId));
  const lists = [
    ['knownFlaws', dossier.knownFlaws],
    ['modifications', dossier.modifications],
    ['itemsIncluded', dossier.itemsIncluded],
  ] as const;
  const items = lists.flatMap(([section, texts]) => texts.map((text, position) => ({ carId, section, position, text })));
  if (items.length > 0) await tx.insert(dossierEntries).values(items);
  for (const [position, record] of dossier.serviceRecords.entries()) {
    let documentId: number | null = null;
    if (record.invoice && documents) {
      const body = await sampleInvoicePdf({
        number: `${car.key.slice(0, 3).toUpperCase()}-${record.date.replaceAll('-', '')}`,
        shop: record.shop,
        date: record.date,
        vehicle: `${car.year} ${car.make} ${car.model}`,
        vin: dossier.vin,
        mileage: record.mileage,
        work: record.work,
        cost: record.cost ?? 0,
      });
      const key = `documents/cars/${carId}/sample-invoice-${position}`;
      await documents.put(key, body, 'application/pdf');
      const [row] = await tx
        .insert(carDocuments)
        .values({ carId, kind: 'service', title: `${record.shop} invoice, ${record.date}`, fileName: `invoice-${record.date}.pdf`, contentType: 'application/pdf', bytes: body.length, storageKey: key, createdAt: listedAt })
        .returning({ id: carDocuments.id });
      documentId = row!.id;
    }
    await tx.insert(dossierEntries).values({
      carId,
      section: 'serviceRecords',
      position,
      serviceDate: record.date,
      serviceMileage: record.mileage,
      serviceShop: record.shop,
      serviceWork: record.work,
      serviceCost: record.cost ?? null,
      documentId,
    });
  }
}
