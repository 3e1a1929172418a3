import { and, count, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../../../db/client.ts';
import { carDocuments, cars, dossierEntries, inspectionResults, orders, sellers } from '../../../../db/schema/index.ts';
import { DOSSIER_LIMITS, DOSSIER_LISTS, safeDocumentName, type DossierSection } from '@common/dossier.ts';
import { FUNDED_ORDER_STATUSES } from '@common/order-lifecycle.ts';
import { carVisibleTo } from '@common/listing.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { DisputeDossier, DocumentFields, DossierDocument, DossierEdit, FrozenDossier, Inspection, InspectionEdit, ItemInput, ServiceRecordInput } from '@common/schemas/dossier.ts';
import { checkVin } from '@common/vin.ts';
import { ErrorCode } from '@common/error-codes.ts';
import type { FieldIssue } from '@common/validation.ts';
import { AppError, conflict, forbidden, notFound, validationFailed } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { noViewers, readCarDetail, type ViewerCounts } from '../cars.ts';
import { lockSellersCar } from '../car-transitions.ts';
import { newDocumentKey, type PhotoStorage } from '../photos/photo-storage.ts';
import { checkDocument } from './document-checks.ts';
import { checklistItems, readDisputeDossier, toDocument, withResults } from './dossier-records.ts';

export interface DossierServiceDeps {
  db: Database;
  events: EventBus;
  /** Where documents are kept (a folder of their own, or `documents/` in the bucket). */
  storage: PhotoStorage;
  viewers?: ViewerCounts;
  log: FastifyBaseLogger;
  escrowDaySeconds: number;
}

type CarRow = typeof cars.$inferSelect;

/** A stored document as the route serves it. */
export interface DocumentFile {
  body: Buffer;
  contentType: DossierDocument['contentType'];
  fileName: string;
  /** The car is on public view (not a draft, not hidden): shared caches may keep it. */
  isPublic: boolean;
}

/**
 * The listing as a dossier: the seller's edits and documents, and the escrow checklist against
 * the dossier frozen into each order. Only the seller edits, while the car is a draft or listed
 * and no order for it holds money; anyone else is told the car does not exist.
 */
export class DossierService {
  constructor(private readonly deps: DossierServiceDeps) {}

  private get db(): Database {
    return this.deps.db;
  }

  // ── The seller's edits ────────────────────────────────────────────────────────────────

  async edit(userId: number, carId: number, edit: DossierEdit): Promise<CarDetail> {
    await this.db.transaction(async (tx) => {
      const car = await this.lockEditable(tx, userId, carId);
      const set: Partial<typeof cars.$inferInsert> = {};
      if (edit.vin !== undefined) {
        if (edit.vin === null) set.vin = null;
        else {
          const verdict = checkVin(edit.vin, car);
          if (!verdict.ok) throw validationFailed([{ field: 'vin', message: verdict.message }]);
          set.vin = verdict.vin;
        }
      }
      if (edit.chassisNumber !== undefined) set.chassisNumber = edit.chassisNumber === null ? null : edit.chassisNumber.toUpperCase();

      const existing = await tx.select({ id: dossierEntries.id, section: dossierEntries.section }).from(dossierEntries).where(eq(dossierEntries.carId, carId));
      const sectionOf = new Map(existing.map((e) => [e.id, e.section]));
      const documentIds = new Set((await tx.select({ id: carDocuments.id }).from(carDocuments).where(eq(carDocuments.carId, carId))).map((d) => d.id));
      const issues: FieldIssue[] = [];
      for (const section of [...DOSSIER_LISTS, 'serviceRecords'] as const) {
        const list = edit[section];
        if (!list) continue;
        const seen = new Set<number>();
        list.forEach((entry: ItemInput | ServiceRecordInput, index) => {
          if (entry.id !== undefined) {
            if (sectionOf.get(entry.id) !== section || seen.has(entry.id)) issues.push({ field: `${section}/${index}/id`, message: `No ${section} entry ${entry.id} to keep on this car` });
            seen.add(entry.id);
          }
          if ('documentId' in entry && entry.documentId !== undefined && !documentIds.has(entry.documentId)) {
            issues.push({ field: `serviceRecords/${index}/documentId`, message: `Document ${entry.documentId} is not one of this car's documents` });
          }
        });
      }
      if (issues.length > 0) throw validationFailed(issues);

      for (const section of [...DOSSIER_LISTS, 'serviceRecords'] as const) {
        const list = edit[section];
        if (!list) continue;
        await this.replaceSection(tx, carId, section, list);
      }
      await tx
        .update(cars)
        .set({ ...set, dossierUpdatedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(cars.id, carId));
    });
    this.deps.events.publish('listing.changed', { carId });
    return (await readCarDetail(this.db, carId, { viewers: this.deps.viewers ?? noViewers, viewerUserId: userId, escrowDaySeconds: this.deps.escrowDaySeconds }))!;
  }

  /** One list replaced: entries left out are removed, the named ones keep their ids, the rest are new. */
  private async replaceSection(tx: Transaction, carId: number, section: DossierSection, list: (ItemInput | ServiceRecordInput)[]): Promise<void> {
    const keptIds = list.flatMap((entry) => (entry.id !== undefined ? [entry.id] : []));
    await tx
      .delete(dossierEntries)
      .where(and(eq(dossierEntries.carId, carId), eq(dossierEntries.section, section), ...(keptIds.length > 0 ? [notInArray(dossierEntries.id, keptIds)] : [])));
    const rows = list.map((entry, position) => {
      if (section !== 'serviceRecords') return { id: entry.id, position, text: (entry as ItemInput).text.trim(), serviceDate: null, serviceMileage: null, serviceShop: null, serviceWork: null, serviceCost: null, documentId: null };
      const record = entry as ServiceRecordInput;
      return {
        id: entry.id,
        position,
        text: null,
        serviceDate: record.date,
        serviceMileage: record.mileage,
        serviceShop: record.shop.trim(),
        serviceWork: record.work.trim(),
        serviceCost: record.cost ?? null,
        documentId: record.documentId ?? null,
      };
    });
    const added = rows.filter((row) => row.id === undefined).map(({ id: _id, ...row }) => ({ ...row, carId, section }));
    if (added.length > 0) await tx.insert(dossierEntries).values(added);
    const kept = rows.filter((row): row is typeof row & { id: number } => row.id !== undefined);
    if (kept.length === 0) return;
    // Every kept entry in one statement: a full list is 50 of them.
    const values = sql.join(
      kept.map(
        (row) =>
          sql`(${row.id}::integer, ${row.position}::smallint, ${row.text}::text, ${row.serviceDate}::date, ${row.serviceMileage}::integer, ${row.serviceShop}::text, ${row.serviceWork}::text, ${row.serviceCost}::integer, ${row.documentId}::integer)`,
      ),
      sql`, `,
    );
    await tx.execute(sql`
      update ${dossierEntries} as e set
        position = v.position, text = v.text, service_date = v.service_date, service_mileage = v.service_mileage,
        service_shop = v.service_shop, service_work = v.service_work, service_cost = v.service_cost, document_id = v.document_id
      from (values ${values}) as v(id, position, text, service_date, service_mileage, service_shop, service_work, service_cost, document_id)
      where e.id = v.id and e.car_id = ${carId}`);
  }

  // ── Documents ─────────────────────────────────────────────────────────────────────────

  /**
   * Checks and stores a document. The file is judged before anything is written; it is stored
   * before its row, and removed again if the row cannot be written.
   */
  async addDocument(userId: number, carId: number, file: Buffer, fields: DocumentFields, sentName: string | undefined): Promise<DossierDocument> {
    await this.db.transaction(async (tx) => {
      const car = await this.lockEditable(tx, userId, carId);
      await this.assertRoomForDocument(tx, car.id);
    });
    const checked = await checkDocument(file);
    const key = newDocumentKey(carId);
    await this.deps.storage.put(key, checked.body, checked.contentType);
    try {
      const row = await this.db.transaction(async (tx) => {
        await this.lockEditable(tx, userId, carId);
        await this.assertRoomForDocument(tx, carId);
        const [inserted] = await tx
          .insert(carDocuments)
          .values({ carId, kind: fields.kind, title: fields.title.trim(), fileName: safeDocumentName(sentName, checked.contentType), contentType: checked.contentType, bytes: checked.body.length, storageKey: key })
          .returning();
        await tx.update(cars).set({ dossierUpdatedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(cars.id, carId));
        return inserted!;
      });
      this.deps.events.publish('listing.changed', { carId });
      return toDocument(row);
    } catch (error) {
      await this.deps.storage.remove([key]).catch((removeError: unknown) => this.deps.log.warn({ err: removeError, key }, 'could not remove the file of a refused document'));
      throw error;
    }
  }

  async removeDocument(userId: number, carId: number, documentId: number): Promise<void> {
    const key = await this.db.transaction(async (tx) => {
      await this.lockEditable(tx, userId, carId);
      const [removed] = await tx
        .delete(carDocuments)
        .where(and(eq(carDocuments.id, documentId), eq(carDocuments.carId, carId)))
        .returning({ key: carDocuments.storageKey });
      if (!removed) throw notFound('Document not found');
      await tx.update(cars).set({ dossierUpdatedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(cars.id, carId));
      return removed.key;
    });
    // The row is gone, so nothing serves the file any more: a failure here only leaves bytes behind.
    await this.deps.storage.remove([key]).catch((error: unknown) => this.deps.log.warn({ err: error, key }, 'could not remove the file of a removed document'));
    this.deps.events.publish('listing.changed', { carId });
  }

  /** A document's file, for whoever may see the car (`carVisibleTo`); anyone else: 404. */
  async openDocument(viewer: { userId: number | null; isStaff: boolean }, carId: number, documentId: number): Promise<DocumentFile> {
    const [row] = await this.db
      .select({ document: carDocuments, status: cars.status, sellerUserId: sellers.userId })
      .from(carDocuments)
      .innerJoin(cars, eq(cars.id, carDocuments.carId))
      .innerJoin(sellers, eq(sellers.id, cars.sellerId))
      .where(and(eq(carDocuments.id, documentId), eq(carDocuments.carId, carId)));
    const isSeller = row !== undefined && viewer.userId !== null && row.sellerUserId === viewer.userId;
    if (!row || !carVisibleTo(row.status, { isSeller, isStaff: viewer.isStaff })) throw notFound('Document not found');
    const body = await this.deps.storage.get(row.document.storageKey);
    if (!body) throw notFound('Document not found');
    return { body, contentType: row.document.contentType, fileName: row.document.fileName, isPublic: carVisibleTo(row.status, { isSeller: false, isStaff: false }) };
  }

  private async assertRoomForDocument(tx: Transaction, carId: number): Promise<void> {
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(carDocuments).where(eq(carDocuments.carId, carId));
    if (n >= DOSSIER_LIMITS.maxDocuments) throw conflict(ErrorCode.TOO_MANY_DOCUMENTS, `A listing can hold at most ${DOSSIER_LIMITS.maxDocuments} documents`, { max: DOSSIER_LIMITS.maxDocuments });
  }

  /** Locks the car if `userId` sells it and it may still change (else 404 or 409 LISTING_LOCKED). */
  private async lockEditable(tx: Transaction, userId: number, carId: number): Promise<CarRow> {
    const car = await lockSellersCar(tx, userId, carId);
    if (car.status !== 'draft' && car.status !== 'active') {
      throw conflict(ErrorCode.LISTING_LOCKED, 'The dossier changes only while the listing is a draft or on the market', { status: car.status });
    }
    const [funded] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.carId, carId), inArray(orders.status, [...FUNDED_ORDER_STATUSES])))
      .limit(1);
    if (funded) throw conflict(ErrorCode.LISTING_LOCKED, 'An escrow order holds the payment for this car, so its dossier can no longer change', { status: car.status });
    return car;
  }

  // ── The escrow checklist ──────────────────────────────────────────────────────────────

  /** The checklist of an order, for its parties and staff; anyone else: 404. */
  async inspection(viewer: { userId: number; isStaff: boolean }, orderId: number): Promise<Inspection> {
    const order = await this.orderForParty(this.db, viewer, orderId);
    return this.inspectionOf(this.db, order);
  }

  /** The buyer marks items of the frozen dossier, only while the order is in inspection. */
  async mark(buyerUserId: number, orderId: number, edit: InspectionEdit): Promise<Inspection> {
    return this.db.transaction(async (tx) => {
      const [head] = await tx.select({ carId: orders.carId }).from(orders).where(eq(orders.id, orderId));
      // The car first, then the order: the lock order of every escrow move.
      if (head) await tx.select({ id: cars.id }).from(cars).where(eq(cars.id, head.carId)).for('no key update');
      const order = await this.orderForParty(tx, { userId: buyerUserId, isStaff: false }, orderId, true);
      if (order.buyerId !== buyerUserId) throw forbidden(ErrorCode.NOT_ALLOWED, 'Only the buyer marks the inspection checklist');
      if (order.status !== 'inspection' || order.inspectionOver) {
        throw conflict(ErrorCode.INVALID_TRANSITION, 'The checklist can be marked only during the inspection period', { status: order.status });
      }
      const frozen = this.frozenOf(order);
      const known = new Set(checklistItems(frozen).map((item) => item.itemId));
      const issues = edit.items.flatMap((item, index) => (known.has(item.itemId) ? [] : [{ field: `items/${index}/itemId`, message: `Item ${item.itemId} is not in this order's dossier` }]));
      if (new Set(edit.items.map((item) => item.itemId)).size !== edit.items.length) issues.push({ field: 'items', message: 'Name each item once' });
      if (issues.length > 0) throw validationFailed(issues);
      for (const item of edit.items) {
        const note = item.note?.trim() ? item.note.trim() : null;
        await tx
          .insert(inspectionResults)
          .values({ orderId, itemId: item.itemId, result: item.result, note })
          .onConflictDoUpdate({ target: [inspectionResults.orderId, inspectionResults.itemId], set: { result: item.result, note, updatedAt: sql`now()` } });
      }
      return this.inspectionOf(tx, order);
    });
  }

  /** What the operator's dispute view holds beside the order. */
  disputeDossier(orderId: number): Promise<DisputeDossier | null> {
    return readDisputeDossier(this.db, orderId);
  }

  private async orderForParty(executor: Database | Transaction, viewer: { userId: number; isStaff: boolean }, orderId: number, forUpdate = false) {
    const query = executor
      .select({
        id: orders.id,
        buyerId: orders.buyerId,
        status: orders.status,
        snapshot: orders.dossierSnapshot,
        hash: orders.snapshotHash,
        disputedItems: orders.disputedItems,
        sellerUserId: sellers.userId,
        inspectionOver: sql<boolean>`coalesce(${orders.inspectionEndsAt} <= now(), false)`,
      })
      .from(orders)
      .innerJoin(sellers, eq(sellers.id, orders.sellerId))
      .where(eq(orders.id, orderId));
    const [order] = forUpdate ? await query.for('no key update', { of: orders }) : await query;
    if (!order || (!viewer.isStaff && order.buyerId !== viewer.userId && order.sellerUserId !== viewer.userId)) throw notFound('Order not found');
    return order;
  }

  private frozenOf(order: { snapshot: FrozenDossier | null }): FrozenDossier {
    if (!order.snapshot) throw conflict(ErrorCode.INVALID_TRANSITION, 'This order was placed before listings had dossiers: it has no checklist');
    return order.snapshot;
  }

  private marksOf(executor: Database | Transaction, orderId: number) {
    return executor.select({ itemId: inspectionResults.itemId, result: inspectionResults.result, note: inspectionResults.note }).from(inspectionResults).where(eq(inspectionResults.orderId, orderId));
  }

  private async inspectionOf(executor: Database | Transaction, order: { id: number; snapshot: FrozenDossier | null; hash: string | null; disputedItems: number[] }): Promise<Inspection> {
    if (!order.snapshot || !order.hash) throw new AppError(ErrorCode.NOT_FOUND, 'This order was placed before listings had dossiers: it has no checklist');
    return { snapshotHash: order.hash, items: withResults(order.snapshot, await this.marksOf(executor, order.id)), disputedItems: order.disputedItems };
  }
}
