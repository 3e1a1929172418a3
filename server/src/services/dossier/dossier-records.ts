import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../../../db/client.ts';
import { carDocuments, cars, dossierEntries, inspectionResults, orders } from '../../../../db/schema/index.ts';
import { validationFailed } from '../../lib/errors.ts';
import { DOSSIER_LISTS, DOSSIER_SECTIONS, serviceRecordLine, type DossierSection } from '@common/dossier.ts';
import type { DisputeDossier, Dossier, DossierChange, DossierDocument, FrozenDossier, InspectionItem, Item, ServiceRecord } from '@common/schemas/dossier.ts';
import { checkVin, type VinCheck } from '@common/vin.ts';

/** How the dossier is read, frozen into an order, hashed and compared. */

type CarIdentity = Pick<typeof cars.$inferSelect, 'id' | 'make' | 'year' | 'vin' | 'chassisNumber' | 'dossierUpdatedAt'>;
type EntryRow = typeof dossierEntries.$inferSelect;
type DocumentRow = typeof carDocuments.$inferSelect;

/** The route that serves a document (it checks who may see the car). */
export function documentUrl(carId: number, documentId: number): string {
  return `/api/cars/${carId}/documents/${documentId}`;
}

/** A stored VIN's check as the car page states it (it passed `checkVin` when the seller saved it). */
export function vinCheckOf(car: Pick<CarIdentity, 'vin' | 'make' | 'year'>): VinCheck | null {
  if (car.vin === null) return null;
  const verdict = checkVin(car.vin, car);
  return verdict.ok ? verdict.vinCheck : 'not_applicable';
}

export function toDocument(row: DocumentRow): DossierDocument {
  return { id: row.id, kind: row.kind, title: row.title, url: documentUrl(row.carId, row.id), bytes: row.bytes, contentType: row.contentType, uploadedAt: row.createdAt.toISOString() };
}

function toServiceRecord(row: EntryRow): ServiceRecord {
  return {
    id: row.id,
    date: row.serviceDate!,
    mileage: row.serviceMileage!,
    shop: row.serviceShop!,
    work: row.serviceWork!,
    ...(row.serviceCost !== null ? { cost: row.serviceCost } : {}),
    ...(row.documentId !== null ? { documentId: row.documentId } : {}),
  };
}

export async function readDossier(executor: Executor, car: CarIdentity): Promise<Dossier> {
  return dossierOf(car, await readDossierParts(executor, car.id));
}

/** A car's entries and documents, read by id alone (so it can run beside the car's own query). */
export async function readDossierParts(executor: Executor, carId: number): Promise<DossierParts> {
  const [entries, documents] = await Promise.all([
    executor.select().from(dossierEntries).where(eq(dossierEntries.carId, carId)).orderBy(asc(dossierEntries.position), asc(dossierEntries.id)),
    executor.select().from(carDocuments).where(eq(carDocuments.carId, carId)).orderBy(asc(carDocuments.id)),
  ]);
  return { entries, documents };
}

export interface DossierParts {
  entries: EntryRow[];
  documents: DocumentRow[];
}

/** The dossier of `car` from its parts. */
export function dossierOf(car: CarIdentity, parts: DossierParts): Dossier {
  return assemble(car, parts.entries, parts.documents);
}

function assemble(car: CarIdentity, entries: EntryRow[], documents: DocumentRow[]): Dossier {
  const items = (section: DossierSection): Item[] => entries.filter((e) => e.section === section).map((e) => ({ id: e.id, text: e.text! }));
  return {
    vin: car.vin,
    vinCheck: vinCheckOf(car),
    chassisNumber: car.chassisNumber,
    knownFlaws: items('knownFlaws'),
    modifications: items('modifications'),
    itemsIncluded: items('itemsIncluded'),
    serviceRecords: entries.filter((e) => e.section === 'serviceRecords').map(toServiceRecord),
    documents: documents.map(toDocument),
    updatedAt: car.dossierUpdatedAt?.toISOString() ?? null,
  };
}

/** The dossier as an order keeps it: everything but links and the time of the last edit. */
export function freeze(dossier: Dossier): FrozenDossier {
  return {
    vin: dossier.vin,
    vinCheck: dossier.vinCheck,
    chassisNumber: dossier.chassisNumber,
    knownFlaws: dossier.knownFlaws,
    modifications: dossier.modifications,
    itemsIncluded: dossier.itemsIncluded,
    serviceRecords: dossier.serviceRecords,
    documents: dossier.documents.map(({ id, kind, title, bytes, contentType, uploadedAt }) => ({ id, kind, title, bytes, contentType, uploadedAt })),
  };
}

/** SHA-256 (hex) of the frozen dossier's canonical JSON (RFC 8785): the same for the same content, whatever the key order. */
export function snapshotHash(frozen: FrozenDossier): string {
  return createHash('sha256').update(canonicalize(frozen)!, 'utf8').digest('hex');
}

/** Reads the car's dossier in the caller's transaction and freezes it, with its hash. */
export async function freezeCarDossier(executor: Executor, carId: number): Promise<{ snapshot: FrozenDossier; hash: string }> {
  const [car] = await executor
    .select({ id: cars.id, make: cars.make, year: cars.year, vin: cars.vin, chassisNumber: cars.chassisNumber, dossierUpdatedAt: cars.dossierUpdatedAt })
    .from(cars)
    .where(eq(cars.id, carId));
  const snapshot = freeze(await readDossier(executor, car!));
  return { snapshot, hash: snapshotHash(snapshot) };
}

/** Every item of the frozen dossier the buyer checks, in the car page's order. */
export function checklistItems(frozen: FrozenDossier): { itemId: number; section: DossierSection; text: string }[] {
  return [
    ...DOSSIER_LISTS.flatMap((section) => frozen[section].map((item) => ({ itemId: item.id, section, text: item.text }))),
    ...frozen.serviceRecords.map((record) => ({ itemId: record.id, section: 'serviceRecords' as const, text: serviceRecordLine(record) })),
  ];
}

/** The checklist with the buyer's marks. */
export function withResults(frozen: FrozenDossier, marks: { itemId: number; result: InspectionItem['result']; note: string | null }[]): InspectionItem[] {
  const byItem = new Map(marks.map((mark) => [mark.itemId, mark]));
  return checklistItems(frozen).map((item) => ({ ...item, result: byItem.get(item.itemId)?.result ?? null, note: byItem.get(item.itemId)?.note ?? null }));
}

/** What changed between the frozen dossier and the listing's dossier now. */
export function changesSince(frozen: FrozenDossier, now: FrozenDossier): DossierChange[] {
  const changes: DossierChange[] = [];
  for (const field of ['vin', 'chassisNumber'] as const) {
    if (frozen[field] !== now[field]) changes.push({ section: field, change: frozen[field] === null ? 'added' : now[field] === null ? 'removed' : 'changed', itemId: null, before: frozen[field], after: now[field] });
  }
  const lines = (dossier: FrozenDossier) => new Map(checklistItems(dossier).map((item) => [item.itemId, item]));
  const [before, after] = [lines(frozen), lines(now)];
  for (const section of DOSSIER_SECTIONS) {
    for (const [id, item] of before) {
      if (item.section !== section) continue;
      const later = after.get(id);
      if (!later) changes.push({ section, change: 'removed', itemId: id, before: item.text, after: null });
      else if (later.text !== item.text) changes.push({ section, change: 'changed', itemId: id, before: item.text, after: later.text });
    }
    for (const [id, item] of after) if (item.section === section && !before.has(id)) changes.push({ section, change: 'added', itemId: id, before: null, after: item.text });
  }
  const documentIds = (dossier: FrozenDossier) => new Map(dossier.documents.map((d) => [d.id, d.title]));
  const [docsBefore, docsAfter] = [documentIds(frozen), documentIds(now)];
  for (const [id, title] of docsBefore) if (!docsAfter.has(id)) changes.push({ section: 'documents', change: 'removed', itemId: id, before: title, after: null });
  for (const [id, title] of docsAfter) if (!docsBefore.has(id)) changes.push({ section: 'documents', change: 'added', itemId: id, before: null, after: title });
  return changes;
}

/**
 * The items a dispute cites: those named (each must be in the frozen dossier, else 400), or
 * without a list, those the buyer marked not as described. Read in the dispute's transaction.
 */
export async function citedItems(executor: Executor, orderId: number, named: number[] | undefined): Promise<number[]> {
  const [order] = await executor.select({ snapshot: orders.dossierSnapshot }).from(orders).where(eq(orders.id, orderId));
  const inChecklistOrder = order?.snapshot ? checklistItems(order.snapshot).map((item) => item.itemId) : [];
  if (named !== undefined) {
    const known = new Set(inChecklistOrder);
    const issues = named.flatMap((id, index) => (known.has(id) ? [] : [{ field: `items/${index}`, message: `Item ${id} is not in this order's dossier` }]));
    if (issues.length > 0) throw validationFailed(issues);
    return named;
  }
  const marked = await executor
    .select({ itemId: inspectionResults.itemId })
    .from(inspectionResults)
    .where(and(eq(inspectionResults.orderId, orderId), eq(inspectionResults.result, 'not_as_described')));
  const markedIds = new Set(marked.map((m) => m.itemId));
  return inChecklistOrder.filter((id) => markedIds.has(id));
}

/** The operator's view of a disputed order's dossier: checklist, frozen dossier, and the listing's changes since. */
export async function readDisputeDossier(executor: Executor, orderId: number): Promise<DisputeDossier | null> {
  const [order] = await executor
    .select({ carId: orders.carId, snapshot: orders.dossierSnapshot, hash: orders.snapshotHash, disputedItems: orders.disputedItems })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order?.snapshot || !order.hash) return null;
  const [[car], marks] = await Promise.all([
    executor.select().from(cars).where(eq(cars.id, order.carId)),
    executor.select({ itemId: inspectionResults.itemId, result: inspectionResults.result, note: inspectionResults.note }).from(inspectionResults).where(eq(inspectionResults.orderId, orderId)),
  ]);
  const now = freeze(await readDossier(executor, car!));
  return {
    snapshotHash: order.hash,
    hashMatches: snapshotHash(order.snapshot) === order.hash,
    frozen: order.snapshot,
    checklist: withResults(order.snapshot, marks),
    disputedItems: order.disputedItems,
    changesSince: changesSince(order.snapshot, now),
  };
}
