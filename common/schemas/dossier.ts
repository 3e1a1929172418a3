import { Type, type Static } from 'typebox';
import { DOCUMENT_KINDS, DOCUMENT_TYPES, DOSSIER_LIMITS, DOSSIER_SECTIONS, INSPECTION_RESULTS, MAX_CHECKLIST_ITEMS } from '../dossier.ts';
import { CHASSIS_NUMBER_MAX, CHASSIS_NUMBER_PATTERN, VIN_CHECKS, VIN_LENGTH, VIN_MESSAGES } from '../vin.ts';
import { Id, IsoDateTime, Nullable, StringEnum, Text, messages, strict } from './kit.ts';

/**
 * The listing as a dossier (contract "The listing as a dossier, checked in escrow"): what the
 * car page shows, what the seller sends, what an order freezes and what the buyer checks.
 */

const count = new Intl.NumberFormat('en-US');
const { maxListItems, itemText } = DOSSIER_LIMITS;

// ── Answers ──────────────────────────────────────────────────────────────────────────────────

export const ItemSchema = Type.Object(
  { id: Type.Integer({ description: 'Stable across edits; the checklist names items by it' }), text: Type.String() },
  { title: 'DossierItem' },
);
export type Item = Static<typeof ItemSchema>;

const serviceRecordFields = {
  date: Type.String({ format: 'date', description: 'When the work was done (YYYY-MM-DD)' }),
  mileage: Type.Integer({ minimum: 0, maximum: DOSSIER_LIMITS.maxMileage, description: 'The odometer then, in miles' }),
  shop: Type.String(),
  work: Type.String(),
};

export const ServiceRecordSchema = Type.Object(
  {
    id: Type.Integer(),
    ...serviceRecordFields,
    cost: Type.Optional(Type.Integer({ description: 'Whole US dollars' })),
    documentId: Type.Optional(Type.Integer({ description: "The invoice among the car's documents" })),
  },
  { title: 'ServiceRecord' },
);
export type ServiceRecord = Static<typeof ServiceRecordSchema>;

export const DocumentSchema = Type.Object(
  {
    id: Type.Integer(),
    kind: StringEnum(DOCUMENT_KINDS),
    title: Type.String(),
    url: Type.String({ description: 'GET it to read the file (public while the car is public)' }),
    bytes: Type.Integer(),
    contentType: StringEnum(DOCUMENT_TYPES, { description: 'Judged from the content' }),
    uploadedAt: IsoDateTime,
  },
  { title: 'DossierDocument' },
);
export type DossierDocument = Static<typeof DocumentSchema>;

const identityFields = {
  vin: Nullable(Type.String({ description: '17 characters, capitals' })),
  vinCheck: Nullable(StringEnum(VIN_CHECKS, { description: 'valid: a North American VIN with the right check digit; not_applicable: other VINs. Null without a VIN' })),
  chassisNumber: Nullable(Type.String()),
};

export const DossierSchema = Type.Object(
  {
    ...identityFields,
    knownFlaws: Type.Array(ItemSchema),
    modifications: Type.Array(ItemSchema),
    itemsIncluded: Type.Array(ItemSchema),
    serviceRecords: Type.Array(ServiceRecordSchema, { description: 'Newest first' }),
    documents: Type.Array(DocumentSchema, { description: 'In the order they were uploaded' }),
    updatedAt: Nullable({ ...IsoDateTime, description: 'When the seller last changed it; null while it was never filled' }),
  },
  { title: 'Dossier' },
);
export type Dossier = Static<typeof DossierSchema>;

/** A document as an order freezes it: what it was, without a link (the file may be gone since). */
export const FrozenDocumentSchema = Type.Object(
  { id: Type.Integer(), kind: StringEnum(DOCUMENT_KINDS), title: Type.String(), bytes: Type.Integer(), contentType: StringEnum(DOCUMENT_TYPES), uploadedAt: IsoDateTime },
  { title: 'FrozenDocument' },
);

/** The dossier as it stood when the order was created; `snapshotHash` is SHA-256 of its canonical JSON. */
export const FrozenDossierSchema = Type.Object(
  {
    ...identityFields,
    knownFlaws: Type.Array(ItemSchema),
    modifications: Type.Array(ItemSchema),
    itemsIncluded: Type.Array(ItemSchema),
    serviceRecords: Type.Array(ServiceRecordSchema),
    documents: Type.Array(FrozenDocumentSchema),
  },
  { title: 'FrozenDossier' },
);
export type FrozenDossier = Static<typeof FrozenDossierSchema>;

export const InspectionItemSchema = Type.Object(
  {
    itemId: Type.Integer(),
    section: StringEnum(DOSSIER_SECTIONS),
    text: Type.String({ description: 'The item as frozen (a service record as one line)' }),
    result: Nullable(StringEnum(INSPECTION_RESULTS, { description: 'Null until the buyer marks it' })),
    note: Nullable(Type.String()),
  },
  { title: 'InspectionItem' },
);
export type InspectionItem = Static<typeof InspectionItemSchema>;

/** `GET` and `PUT /api/orders/:id/inspection`. */
export const InspectionSchema = Type.Object(
  {
    snapshotHash: Type.String({ description: 'SHA-256 (hex) of the frozen dossier in canonical JSON' }),
    items: Type.Array(InspectionItemSchema, { description: 'Known flaws, modifications, included items, then service records, as frozen' }),
    disputedItems: Type.Array(Type.Integer(), { description: 'Extension: the items the dispute cites (empty without a dispute)' }),
  },
  { title: 'Inspection' },
);
export type Inspection = Static<typeof InspectionSchema>;

export const DOSSIER_CHANGE_KINDS = ['added', 'removed', 'changed'] as const;

/** One difference between the frozen dossier and the listing as it is now. */
export const DossierChangeSchema = Type.Object(
  {
    section: StringEnum([...DOSSIER_SECTIONS, 'vin', 'chassisNumber', 'documents'] as const),
    change: StringEnum(DOSSIER_CHANGE_KINDS),
    itemId: Nullable(Type.Integer()),
    before: Nullable(Type.String()),
    after: Nullable(Type.String()),
  },
  { title: 'DossierChange' },
);
export type DossierChange = Static<typeof DossierChangeSchema>;

/** What the operator's dispute view holds beside the order: the checklist and the frozen dossier. */
export const DisputeDossierSchema = Type.Object(
  {
    snapshotHash: Type.String(),
    hashMatches: Type.Boolean({ description: 'The frozen dossier still hashes to snapshotHash' }),
    frozen: FrozenDossierSchema,
    checklist: Type.Array(InspectionItemSchema),
    disputedItems: Type.Array(Type.Integer()),
    changesSince: Type.Array(DossierChangeSchema, { description: 'What the listing changed after the order was created (empty when nothing)' }),
  },
  { title: 'DisputeDossier' },
);
export type DisputeDossier = Static<typeof DisputeDossierSchema>;

// ── Requests ─────────────────────────────────────────────────────────────────────────────────

const itemTextField = Text(1, itemText, messages({ default: `Each entry is 1 to ${itemText} characters` }));

export const ItemInputSchema = Type.Object(
  { id: Type.Optional(Id({ description: 'Leave out for a new item' })), text: itemTextField },
  strict,
);
export type ItemInput = Static<typeof ItemInputSchema>;

const itemList = (what: string) =>
  Type.Array(ItemInputSchema, { maxItems: maxListItems, description: `Replaces the ${what}, in this order`, ...messages({ maxItems: `List at most ${maxListItems} ${what}` }) });

export const ServiceRecordInputSchema = Type.Object(
  {
    id: Type.Optional(Id({ description: 'Leave out for a new record' })),
    date: Type.String({ format: 'date', ...messages({ default: 'Enter the date of the work (YYYY-MM-DD)' }) }),
    mileage: Type.Integer({
      minimum: 0,
      maximum: DOSSIER_LIMITS.maxMileage,
      ...messages({ default: 'Enter the mileage in whole miles, for example 12400' }),
    }),
    shop: Text(1, DOSSIER_LIMITS.shop, messages({ default: `Name the shop (at most ${DOSSIER_LIMITS.shop} characters)` })),
    work: Text(1, DOSSIER_LIMITS.work, messages({ default: `Describe the work (at most ${count.format(DOSSIER_LIMITS.work)} characters)` })),
    cost: Type.Optional(Type.Integer({ minimum: 0, maximum: DOSSIER_LIMITS.maxCost, description: 'Whole US dollars', ...messages({ default: 'Enter the cost in whole dollars' }) })),
    documentId: Type.Optional(Id({ description: "One of the car's documents (else 400)" })),
  },
  strict,
);
export type ServiceRecordInput = Static<typeof ServiceRecordInputSchema>;

export const VinField = Type.String({
  minLength: VIN_LENGTH,
  maxLength: VIN_LENGTH,
  pattern: '^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$',
  description: '17 characters without I, O or Q; a North American VIN (first character 1-5) must carry the right check digit and model-year character; a known maker code must match the make',
  ...messages({ default: VIN_MESSAGES.format }),
});

export const ChassisNumberField = Type.String({
  minLength: 1,
  maxLength: CHASSIS_NUMBER_MAX,
  pattern: CHASSIS_NUMBER_PATTERN,
  description: 'For cars before 1981 and markets without 17-character VINs, for example BNR32-305156',
  ...messages({ default: VIN_MESSAGES.chassisNumber }),
});

/** `PUT /api/cars/:id/dossier`: each field given replaces the old one; null clears the VIN or chassis number. */
export const DossierEditSchema = Type.Object(
  {
    vin: Type.Optional(Nullable(VinField)),
    chassisNumber: Type.Optional(Nullable(ChassisNumberField)),
    knownFlaws: Type.Optional(itemList('known flaws')),
    modifications: Type.Optional(itemList('modifications')),
    itemsIncluded: Type.Optional(itemList('included items')),
    serviceRecords: Type.Optional(
      Type.Array(ServiceRecordInputSchema, { maxItems: maxListItems, description: 'Replaces the service history', ...messages({ maxItems: `List at most ${maxListItems} service records` }) }),
    ),
  },
  {
    ...strict,
    title: 'DossierEdit',
    examples: [
      {
        vin: 'WP0AC2A94NS270123',
        knownFlaws: [{ text: 'Stone chips on the front bumper' }],
        modifications: [],
        itemsIncluded: [{ text: 'Both keys and the car cover' }],
        serviceRecords: [{ date: '2024-05-10', mileage: 8120, shop: 'Porsche Austin', work: 'Annual service, brake fluid', cost: 1450 }],
      },
    ],
  },
);
export type DossierEdit = Static<typeof DossierEditSchema>;

/** The text fields of `POST /api/cars/:id/documents` (beside the `file` part). */
export const DocumentFieldsSchema = Type.Object(
  {
    kind: StringEnum(DOCUMENT_KINDS, messages({ default: 'Choose what kind of document this is' })),
    title: Text(1, DOSSIER_LIMITS.documentTitle, messages({ default: `Give the document a title (at most ${DOSSIER_LIMITS.documentTitle} characters)` })),
  },
  strict,
);
export type DocumentFields = Static<typeof DocumentFieldsSchema>;

export const DocumentParams = Type.Object({ id: Type.String({ maxLength: 20 }), documentId: Type.String({ maxLength: 20 }) });

/** `PUT /api/orders/:id/inspection`: the buyer's marks; items left out keep theirs. */
export const InspectionEditSchema = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          itemId: Id(),
          result: StringEnum(INSPECTION_RESULTS, messages({ default: 'Mark the item as described or not as described' })),
          note: Type.Optional(Type.String({ maxLength: DOSSIER_LIMITS.inspectionNote, ...messages({ maxLength: `A note is at most ${count.format(DOSSIER_LIMITS.inspectionNote)} characters` }) })),
        },
        strict,
      ),
      { minItems: 1, maxItems: MAX_CHECKLIST_ITEMS },
    ),
  },
  { ...strict, title: 'InspectionEdit', examples: [{ items: [{ itemId: 12, result: 'not_as_described', note: 'The chips are a cracked bumper' }] }] },
);
export type InspectionEdit = Static<typeof InspectionEditSchema>;

/** The `items` a dispute may cite: ids of the frozen dossier's items. */
export const DisputeItemsField = Type.Array(Id(), {
  maxItems: MAX_CHECKLIST_ITEMS,
  uniqueItems: true,
  description: 'Ids of the frozen dossier items found not as described (else 400); without it, the items the buyer marked not as described',
});

/** A car's dossier before the seller fills anything in. */
export const EMPTY_DOSSIER: Dossier = {
  vin: null,
  vinCheck: null,
  chassisNumber: null,
  knownFlaws: [],
  modifications: [],
  itemsIncluded: [],
  serviceRecords: [],
  documents: [],
  updatedAt: null,
};
