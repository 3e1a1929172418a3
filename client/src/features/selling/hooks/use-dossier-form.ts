import { useState } from 'react';
import {
  DOSSIER_LISTS,
  entryErrorKey,
  SERVICE_RECORD_FIELDS,
  validateDossier,
  type DossierErrors,
  type DossierFormValues,
  type DossierListName,
  type DraftItem,
  type DraftServiceRecord,
} from '../lib/dossier-form.ts';

/** The keys of the problems one change may have fixed: those of the entries that differ. */
function changedKeys(previous: DossierFormValues, next: DossierFormValues): string[] {
  const keys: string[] = [];
  if (previous.vin !== next.vin || previous.identity !== next.identity) keys.push('vin');
  if (previous.chassisNumber !== next.chassisNumber || previous.identity !== next.identity) keys.push('chassisNumber');
  for (const list of DOSSIER_LISTS) {
    if (previous[list].length !== next[list].length) keys.push(list);
    const before = new Map(previous[list].map((item) => [item.key, item.text]));
    for (const item of next[list]) if (before.get(item.key) !== item.text) keys.push(entryErrorKey(list, item.key));
  }
  if (previous.serviceRecords.length !== next.serviceRecords.length) keys.push('serviceRecords');
  const records = new Map(previous.serviceRecords.map((record) => [record.key, record]));
  for (const record of next.serviceRecords) {
    const before = records.get(record.key);
    for (const field of SERVICE_RECORD_FIELDS) if (before?.[field] !== record[field]) keys.push(entryErrorKey('serviceRecords', record.key, field));
  }
  return keys;
}

/**
 * The state of the dossier part of a listing form: the values as typed, which problems show (a
 * field's once it was left, or all once the form was submitted) and the server's refusals, each
 * standing until its field changes. `car` is the make and year the VIN must agree with.
 */
export function useDossierForm({ initial, car }: { initial: () => DossierFormValues; car: { make: string; year: number | null } }) {
  const [values, setValuesState] = useState<DossierFormValues>(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<DossierErrors>({});

  const live = validateDossier(values, car);
  const errors: DossierErrors = {};
  for (const [key, message] of Object.entries(live)) if (submitted || touched.has(key)) errors[key] = message;
  for (const [key, message] of Object.entries(serverErrors)) errors[key] = message;

  function change(next: DossierFormValues) {
    const fixed = changedKeys(values, next);
    setValuesState(next);
    if (fixed.length > 0) {
      setServerErrors((current) => {
        const left = { ...current };
        for (const key of fixed) delete left[key];
        return left;
      });
    }
  }

  const touch = (key: string) => setTouched((t) => (t.has(key) ? t : new Set(t).add(key)));

  return {
    values,
    errors,
    /** Every problem now, shown or not. */
    live,
    setIdentity: (identity: DossierFormValues['identity']) => change({ ...values, identity }),
    setVin: (vin: string) => change({ ...values, vin }),
    setChassisNumber: (chassisNumber: string) => change({ ...values, chassisNumber }),
    setList: (list: DossierListName, items: DraftItem[]) => change({ ...values, [list]: items }),
    setServiceRecords: (serviceRecords: DraftServiceRecord[]) => change({ ...values, serviceRecords }),
    /** Forgets an invoice that is no longer among the documents. */
    detachDocument: (reference: string) =>
      change({ ...values, serviceRecords: values.serviceRecords.map((r) => (r.document === reference ? { ...r, document: '' } : r)) }),
    reset: (next: DossierFormValues) => {
      setValuesState(next);
      setServerErrors({});
      setTouched(new Set());
      setSubmitted(false);
    },
    touch,
    /** Shows every problem; true when there is none (the server's standing refusals count unless told not to). */
    submit({ heedServerErrors = true } = {}): boolean {
      setSubmitted(true);
      const problems = heedServerErrors ? { ...live, ...serverErrors } : live;
      return Object.keys(problems).length === 0;
    },
    /** The server refused some fields: its messages beside them. */
    refuse(found: DossierErrors) {
      setServerErrors(found);
      setSubmitted(true);
    },
  };
}

export type DossierForm = ReturnType<typeof useDossierForm>;
