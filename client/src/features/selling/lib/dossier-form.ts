import {
  DOCUMENT_EXTENSIONS,
  DOCUMENT_KINDS,
  DOCUMENT_KIND_LABELS,
  DOCUMENT_TOO_LARGE_MESSAGE,
  DOCUMENT_TYPE_NAMES,
  DOCUMENT_TYPES,
  DOSSIER_LIMITS,
  DOSSIER_LISTS,
  type DocumentKind,
  type DossierList,
} from '@common/dossier.ts';
import { DocumentFieldsSchema, DossierEditSchema, type Dossier, type DossierEdit, type ServiceRecordInput } from '@common/schemas/dossier.ts';
import { checkVin, VIN_CHECK_LABELS, type VinCheck } from '@common/vin.ts';
import { checkAgainst, issuesByField } from '@common/validation.ts';
import { parseWholeNumber } from './listing-form.ts';

/**
 * The dossier part of the listing form (`/sell` and `/sell/:id/edit`): the VIN or chassis
 * number, the three plain lists, the service records and the documents' details. Every check is
 * the shared schema's (`DossierEditSchema`, `DocumentFieldsSchema`) and the shared VIN rule
 * (`checkVin`), so the sentence beside a field is the server's. The server still decides.
 */

export { DOCUMENT_KINDS, DOCUMENT_KIND_LABELS, DOSSIER_LIMITS, DOSSIER_LISTS, type DocumentKind };

/** One line of a plain list as typed; `id` once the server has it (kept across edits). */
export interface DraftItem {
  key: string;
  id?: number;
  text: string;
}

/**
 * One service record as typed. `document` names the attached invoice: '' for none, `doc:<id>`
 * for one on the server, `local:<key>` for one picked here and not uploaded yet.
 */
export interface DraftServiceRecord {
  key: string;
  id?: number;
  date: string;
  mileage: string;
  shop: string;
  work: string;
  cost: string;
  document: string;
}

export type IdentityKind = 'vin' | 'chassis';

export type DossierListName = DossierList;

export interface DossierFormValues {
  identity: IdentityKind;
  vin: string;
  chassisNumber: string;
  knownFlaws: DraftItem[];
  modifications: DraftItem[];
  itemsIncluded: DraftItem[];
  serviceRecords: DraftServiceRecord[];
}

export const SERVICE_RECORD_FIELDS = ['date', 'mileage', 'shop', 'work', 'cost', 'document'] as const;
export type ServiceRecordField = (typeof SERVICE_RECORD_FIELDS)[number];

/**
 * Problems by where they show: `vin`, `chassisNumber`, a list as a whole (`knownFlaws`), one
 * entry (`knownFlaws:<key>`) or one field of a service record (`serviceRecords:<key>:shop`).
 */
export type DossierErrors = Record<string, string>;

export const entryErrorKey = (list: DossierListName | 'serviceRecords', key: string, field?: ServiceRecordField) =>
  field ? `${list}:${key}:${field}` : `${list}:${key}`;

let keys = 0;
/** A key for a new line, unique in this page. */
export const newDraftKey = (): string => `n${++keys}`;

export const EMPTY_DOSSIER: DossierFormValues = {
  identity: 'vin',
  vin: '',
  chassisNumber: '',
  knownFlaws: [],
  modifications: [],
  itemsIncluded: [],
  serviceRecords: [],
};

export const emptyServiceRecord = (key: string): DraftServiceRecord => ({ key, date: '', mileage: '', shop: '', work: '', cost: '', document: '' });

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** The form filled from a car's dossier (the edit page). */
export function dossierFormValues(dossier: Dossier): DossierFormValues {
  const items = (list: Dossier['knownFlaws']) => list.map((item) => ({ key: `i${item.id}`, id: item.id, text: item.text }));
  return {
    identity: dossier.chassisNumber && !dossier.vin ? 'chassis' : 'vin',
    vin: dossier.vin ?? '',
    chassisNumber: dossier.chassisNumber ?? '',
    knownFlaws: items(dossier.knownFlaws),
    modifications: items(dossier.modifications),
    itemsIncluded: items(dossier.itemsIncluded),
    serviceRecords: dossier.serviceRecords.map((record) => ({
      key: `s${record.id}`,
      id: record.id,
      date: record.date,
      mileage: integerFormat.format(record.mileage),
      shop: record.shop,
      work: record.work,
      cost: record.cost === undefined ? '' : integerFormat.format(record.cost),
      document: record.documentId === undefined ? '' : `doc:${record.documentId}`,
    })),
  };
}

/** A whole number as typed: the number, the text itself when it is not one (the schema words it). */
function typedNumber(text: string): number | string {
  return parseWholeNumber(text) ?? text.trim();
}

const isBlankRecord = (r: DraftServiceRecord) => !r.date.trim() && !r.mileage.trim() && !r.shop.trim() && !r.work.trim() && !r.cost.trim() && !r.document;

/** The body and, for each list, which line each entry of the body came from (blank lines are left out). */
export interface DossierDraftBody {
  body: DossierEdit;
  origin: Record<DossierListName | 'serviceRecords', string[]>;
}

/**
 * `PUT /api/cars/:id/dossier` from the form: every list in full (so removals count), blank lines
 * left out. `documentId` turns a `document` reference into the server's id; a local file not
 * uploaded yet has none.
 */
export function buildDossierEdit(values: DossierFormValues, documentId: (reference: string) => number | undefined): DossierDraftBody {
  const origin: DossierDraftBody['origin'] = { knownFlaws: [], modifications: [], itemsIncluded: [], serviceRecords: [] };
  const list = (name: DossierListName) =>
    values[name]
      .filter((item) => item.text.trim() !== '')
      .map((item) => {
        origin[name].push(item.key);
        return item.id === undefined ? { text: item.text.trim() } : { id: item.id, text: item.text.trim() };
      });
  const serviceRecords = values.serviceRecords
    .filter((record) => !isBlankRecord(record))
    .map((record) => {
      origin.serviceRecords.push(record.key);
      const document = record.document ? documentId(record.document) : undefined;
      return {
        ...(record.id === undefined ? {} : { id: record.id }),
        date: record.date.trim(),
        mileage: typedNumber(record.mileage),
        shop: record.shop.trim(),
        work: record.work.trim(),
        ...(record.cost.trim() ? { cost: typedNumber(record.cost) } : {}),
        ...(document === undefined ? {} : { documentId: document }),
      } as ServiceRecordInput;
    });
  const vin = values.identity === 'vin' && values.vin.trim() ? values.vin.trim().toUpperCase() : null;
  const chassisNumber = values.identity === 'chassis' && values.chassisNumber.trim() ? values.chassisNumber.trim() : null;
  return {
    body: {
      vin,
      chassisNumber,
      knownFlaws: list('knownFlaws'),
      modifications: list('modifications'),
      itemsIncluded: list('itemsIncluded'),
      serviceRecords,
    },
    origin,
  };
}

/** Where a `details` field (`knownFlaws.2.text`, `serviceRecords.0.mileage`, `vin`) shows on the form. */
export function errorKeyOf(field: string, origin: DossierDraftBody['origin']): string | undefined {
  const [head, index, part] = field.replace(/^\//, '').split(/[./]/);
  if (head === 'vin' || head === 'chassisNumber') return head;
  if (head === 'knownFlaws' || head === 'modifications' || head === 'itemsIncluded') {
    if (index === undefined) return head;
    const key = origin[head][Number(index)];
    return key === undefined ? head : entryErrorKey(head, key);
  }
  if (head === 'serviceRecords') {
    if (index === undefined) return head;
    const key = origin.serviceRecords[Number(index)];
    if (key === undefined) return head;
    const name = part === 'documentId' ? 'document' : part;
    return (SERVICE_RECORD_FIELDS as readonly string[]).includes(name ?? '') ? entryErrorKey('serviceRecords', key, name as ServiceRecordField) : entryErrorKey('serviceRecords', key, 'work');
  }
  return undefined;
}

/** What the VIN field says as it is typed: the shared rule's verdict for this make and year. */
export type VinStatus = { state: 'empty' } | { state: 'incomplete' } | { state: 'ok'; vinCheck: VinCheck; label: string } | { state: 'wrong'; message: string };

export function vinStatus(vin: string, car: { make: string; year: number | null }): VinStatus {
  const text = vin.trim();
  if (!text) return { state: 'empty' };
  if (text.length < 17) return { state: 'incomplete' };
  const verdict = checkVin(text, { make: car.make, year: car.year ?? 0 });
  if (!verdict.ok) return { state: 'wrong', message: verdict.message };
  return { state: 'ok', vinCheck: verdict.vinCheck, label: VIN_CHECK_LABELS[verdict.vinCheck] };
}

/**
 * Every problem of the dossier as the server would see it: the shared schema over the body, then
 * the VIN rule for the car's make and year. A local invoice counts as attached (it goes up first).
 */
export function validateDossier(values: DossierFormValues, car: { make: string; year: number | null }): DossierErrors {
  const { body, origin } = buildDossierEdit(values, (reference) => (reference.startsWith('doc:') ? Number(reference.slice(4)) : 1));
  const errors: DossierErrors = {};
  for (const issue of checkAgainst(DossierEditSchema, body)) {
    const key = errorKeyOf(issue.field, origin);
    if (key) errors[key] ??= issue.message;
  }
  if (body.vin && !errors.vin) {
    const status = vinStatus(body.vin, car);
    if (status.state === 'wrong') errors.vin = status.message;
  }
  return errors;
}

/** Splits a 400's `details` into the dossier's fields and the rest (whatever the form cannot place). */
export function dossierErrorsFromDetails(details: unknown, origin: DossierDraftBody['origin']): { errors: DossierErrors; other: string[] } {
  const errors: DossierErrors = {};
  const other: string[] = [];
  if (!Array.isArray(details)) return { errors, other };
  for (const item of details) {
    if (typeof item !== 'object' || item === null) continue;
    const { field, message } = item as { field?: unknown; message?: unknown };
    if (typeof message !== 'string' || !message) continue;
    const key = typeof field === 'string' ? errorKeyOf(field, origin) : undefined;
    if (key) errors[key] ??= message;
    else other.push(message);
  }
  return { errors, other };
}

// ── Documents ────────────────────────────────────────────────────────────────────────────────

/** For the file input's `accept`. */
export const DOCUMENT_ACCEPT = [...DOCUMENT_TYPES, ...DOCUMENT_EXTENSIONS].join(',');
export const DOCUMENT_KIND_OPTIONS = DOCUMENT_KINDS.map((kind) => ({ value: kind, label: DOCUMENT_KIND_LABELS[kind] }));

interface FileLike {
  name: string;
  type: string;
  size: number;
}

const hasDocumentExtension = (name: string) => DOCUMENT_EXTENSIONS.some((extension) => name.toLowerCase().endsWith(extension));

/** Why a picked file will not be sent, or undefined. The server judges the content; this spares a pointless upload. */
export function documentFileProblem(file: FileLike): string | undefined {
  const knownType = (DOCUMENT_TYPES as readonly string[]).includes(file.type);
  if (!knownType && !(file.type === '' && hasDocumentExtension(file.name))) return `${file.name} is not a ${DOCUMENT_TYPE_NAMES} file`;
  if (file.size > DOSSIER_LIMITS.maxDocumentBytes) return `${file.name}: ${DOCUMENT_TOO_LARGE_MESSAGE}`;
  if (file.size === 0) return `${file.name} is empty`;
  return undefined;
}

/** A title to start from: the file's name without its ending, tidied ("service_2024-05.pdf" → "service 2024-05"). */
export function titleFromFileName(name: string): string {
  const stem = name.replace(/\.[^.]*$/, '').replace(/[_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return [...(stem || 'Document')].slice(0, DOSSIER_LIMITS.documentTitle).join('');
}

/** The kind a file's name suggests; the seller can change it. */
export function kindFromFileName(name: string): DocumentKind {
  const lower = name.toLowerCase();
  if (/invoice|service|receipt|maintenance/.test(lower)) return 'service';
  if (/inspection|\bppi\b|report/.test(lower)) return 'inspection';
  if (/title|registration/.test(lower)) return 'title';
  if (/carfax|autocheck|history/.test(lower)) return 'history';
  return 'other';
}

/** The problems of a document's kind and title, by field (`kind`, `title`). */
export function documentFieldErrors(kind: string, title: string): Partial<Record<'kind' | 'title', string>> {
  return issuesByField(DocumentFieldsSchema, { kind, title: title.trim() });
}
