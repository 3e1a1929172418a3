/**
 * What a listing's dossier is made of, and its limits: the request schemas
 * (`common/schemas/dossier.ts`), the database's checks, the document checks, the seed and the
 * selling form all read these.
 */

export const DOSSIER_LIMITS = {
  /** Known flaws, modifications, included items and service records: each list at most this long. */
  maxListItems: 50,
  itemText: 500,
  shop: 120,
  work: 1_000,
  maxCost: 10_000_000,
  maxMileage: 1_000_000,
  documentTitle: 120,
  maxDocuments: 30,
  maxDocumentBytes: 20 * 1024 * 1024,
  inspectionNote: 1_000,
  /** A `PUT /api/cars/:id/dossier` body with every list full of the longest entries fits (the API's default is 64 KB). */
  editBodyBytes: 1024 * 1024,
} as const;

/** The lists of a dossier that the buyer checks in escrow, in the order the car page shows them. */
export const DOSSIER_LISTS = ['knownFlaws', 'modifications', 'itemsIncluded'] as const;
export type DossierList = (typeof DOSSIER_LISTS)[number];

/** An inspection checklist item comes from one of these sections of the frozen dossier. */
export const DOSSIER_SECTIONS = [...DOSSIER_LISTS, 'serviceRecords'] as const;
export type DossierSection = (typeof DOSSIER_SECTIONS)[number];

/** How each section is titled on the car page, the checklist and the operator's view. */
export const DOSSIER_SECTION_LABELS: Record<DossierSection, string> = {
  knownFlaws: 'Known flaws',
  modifications: 'Modifications',
  itemsIncluded: 'Included',
  serviceRecords: 'Service history',
};

export const DOCUMENT_KINDS = ['service', 'inspection', 'title', 'history', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  service: 'Service invoice',
  inspection: 'Inspection report',
  title: 'Title',
  history: 'Vehicle history',
  other: 'Other',
};

/** The types a document may be, judged by its content (never by its name or declared type). */
export const DOCUMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_EXTENSIONS = ['.pdf', '.jpg', '.jpeg', '.png'] as const;
export const DOCUMENT_TYPE_NAMES = 'PDF, JPEG or PNG';
export const DOCUMENT_MAX_SIZE = `${DOSSIER_LIMITS.maxDocumentBytes / 1024 / 1024} MB`;
export const DOCUMENT_TOO_LARGE_MESSAGE = `Documents can be at most ${DOCUMENT_MAX_SIZE}`;

/** What the buyer finds each item of the frozen dossier to be. */
export const INSPECTION_RESULTS = ['as_described', 'not_as_described'] as const;
export type InspectionResult = (typeof INSPECTION_RESULTS)[number];

/** The most ids a checklist or a dispute can name: every list of the dossier full. */
export const MAX_CHECKLIST_ITEMS = DOSSIER_SECTIONS.length * DOSSIER_LIMITS.maxListItems;

/** A service record read as one line of the checklist: "2023-04-12 · 8,120 mi · Shop: work". */
export function serviceRecordLine(record: { date: string; mileage: number; shop: string; work: string }): string {
  return `${record.date} · ${record.mileage.toLocaleString('en-US')} mi · ${record.shop}: ${record.work}`;
}

/**
 * A document's name as it is stored and offered for download: the last part of what the
 * browser sent, with anything but letters, digits, dots, hyphens and underscores made `_`, no
 * leading dots, and the ending of its real type.
 */
export function safeDocumentName(sent: string | undefined, contentType: DocumentType): string {
  const ending = contentType === 'application/pdf' ? '.pdf' : contentType === 'image/png' ? '.png' : '.jpg';
  const last = (sent ?? '').split(/[\\/]/).pop() ?? '';
  const stem = last
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .replace(/_+$/, '')
    .slice(0, 80);
  return `${stem || 'document'}${ending}`;
}
