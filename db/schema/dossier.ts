import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { DOCUMENT_KINDS, DOCUMENT_TYPES, DOSSIER_LIMITS, DOSSIER_SECTIONS, INSPECTION_RESULTS, type DocumentKind, type DocumentType, type DossierSection, type InspectionResult } from '@common/dossier.ts';
import { identity, reference, timestampNow } from './columns.ts';
import { cars } from './catalogue.ts';
import { orders } from './commerce.ts';
import { quoted } from './sql-lists.ts';

/**
 * A car's documents (service invoices, inspection reports, the title): what was checked and
 * stored. The file itself is in the storage under `storageKey`, never served from there directly.
 */
export const carDocuments = pgTable(
  'car_documents',
  {
    id: identity(),
    carId: reference(() => cars.id, 'cascade'),
    kind: text().$type<DocumentKind>().notNull(),
    title: text().notNull(),
    /** The sent file name made safe (see `safeDocumentName`), offered when it is downloaded. */
    fileName: text().notNull(),
    contentType: text().$type<DocumentType>().notNull(),
    bytes: integer().notNull(),
    storageKey: text().notNull().unique(),
    createdAt: timestampNow(),
  },
  (t) => [
    check('car_documents_kind', sql`${t.kind} in (${quoted(DOCUMENT_KINDS)})`),
    check('car_documents_type', sql`${t.contentType} in (${quoted(DOCUMENT_TYPES)})`),
    check('car_documents_bytes', sql`${t.bytes} between 1 and ${sql.raw(String(DOSSIER_LIMITS.maxDocumentBytes))}`),
    check('car_documents_title', sql`char_length(${t.title}) between 1 and ${sql.raw(String(DOSSIER_LIMITS.documentTitle))}`),
    check('car_documents_file_name', sql`${t.fileName} ~ '^[A-Za-z0-9][A-Za-z0-9._-]*$'`),
    index('car_documents_car_idx').on(t.carId, t.id),
  ],
);

/**
 * The dossier's lists in one table, so every item has an id of its own across sections (the
 * checklist and disputes name items by it): known flaws, modifications and included items carry
 * `text`; service records carry the service columns.
 */
export const dossierEntries = pgTable(
  'dossier_entries',
  {
    id: identity(),
    carId: reference(() => cars.id, 'cascade'),
    section: text().$type<DossierSection>().notNull(),
    position: smallint().notNull(),
    text: text(),
    serviceDate: date({ mode: 'string' }),
    serviceMileage: integer(),
    serviceShop: text(),
    serviceWork: text(),
    /** Whole US dollars. */
    serviceCost: integer(),
    /** The invoice among the car's documents; removing the document unlinks it. */
    documentId: integer().references(() => carDocuments.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('dossier_entries_section', sql`${t.section} in (${quoted(DOSSIER_SECTIONS)})`),
    check('dossier_entries_position', sql`${t.position} between 0 and ${sql.raw(String(DOSSIER_LIMITS.maxListItems - 1))}`),
    check(
      'dossier_entries_shape',
      sql`case when ${t.section} = 'serviceRecords'
        then ${t.text} is null and ${t.serviceDate} is not null and ${t.serviceMileage} between 0 and ${sql.raw(String(DOSSIER_LIMITS.maxMileage))}
          and char_length(${t.serviceShop}) between 1 and ${sql.raw(String(DOSSIER_LIMITS.shop))} and char_length(${t.serviceWork}) between 1 and ${sql.raw(String(DOSSIER_LIMITS.work))}
          and (${t.serviceCost} is null or ${t.serviceCost} between 0 and ${sql.raw(String(DOSSIER_LIMITS.maxCost))})
        else char_length(${t.text}) between 1 and ${sql.raw(String(DOSSIER_LIMITS.itemText))} and ${t.serviceDate} is null and ${t.serviceMileage} is null
          and ${t.serviceShop} is null and ${t.serviceWork} is null and ${t.serviceCost} is null and ${t.documentId} is null end`,
    ),
    index('dossier_entries_car_idx').on(t.carId, t.section, t.position),
  ],
);

/** The buyer's marks on an order's checklist: one per frozen item, changed until the inspection ends. */
export const inspectionResults = pgTable(
  'inspection_results',
  {
    orderId: reference(() => orders.id, 'cascade'),
    /** The item's id in the order's frozen dossier. */
    itemId: integer().notNull(),
    result: text().$type<InspectionResult>().notNull(),
    note: text(),
    updatedAt: timestampNow(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.itemId] }),
    check('inspection_results_result', sql`${t.result} in (${quoted(INSPECTION_RESULTS)})`),
    check('inspection_results_note', sql`${t.note} is null or char_length(${t.note}) <= ${sql.raw(String(DOSSIER_LIMITS.inspectionNote))}`),
  ],
);
