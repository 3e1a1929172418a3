import { useId, useState, type FormEvent } from 'react';
import { ErrorCode } from '@common/error-codes.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { removeDocument, saveDossier } from '../api/selling-api.ts';
import { useDocumentUploads } from '../hooks/use-document-uploads.ts';
import { useDossierForm } from '../hooks/use-dossier-form.ts';
import { useListingChange } from '../hooks/use-listing-change.ts';
import { buildDossierEdit, dossierErrorsFromDetails, dossierFormValues } from '../lib/dossier-form.ts';
import { DocumentsField } from './documents-field.tsx';
import { DossierFields } from './dossier-fields.tsx';
import { SaveActions, type EditFilesSectionProps, type EditSectionProps, type SaveStatus } from './edit-section-parts.tsx';

/** The dossier of a listing: VIN, lists and service records, saved together (each list replaced in full). */
export function EditListingDossier({ car, locked, onSaved, onRefused }: EditSectionProps) {
  const idBase = useId();
  const form = useDossierForm({ initial: () => dossierFormValues(car.dossier), car: { make: car.make, year: car.year } });
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<SaveStatus | null>(null);
  const invoices = car.dossier.documents.map((d) => ({ value: `doc:${d.id}`, label: d.title }));

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || locked) return;
    if (!form.submit({ heedServerErrors: false })) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-dossier-form="${idBase}"] [aria-invalid="true"]`)?.focus());
      return;
    }
    const { body, origin } = buildDossierEdit(form.values, (reference) => (reference.startsWith('doc:') ? Number(reference.slice(4)) : undefined));
    setSaving(true);
    setStatus(null);
    try {
      const updated = await saveDossier(car.id, body);
      onSaved(updated);
      form.reset(dossierFormValues(updated.dossier));
      setStatus({ tone: 'success', text: 'Dossier saved.' });
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.VALIDATION_FAILED) {
        const { errors, other } = dossierErrorsFromDetails(error.details, origin);
        form.refuse(errors);
        setStatus({ tone: 'error', text: other.length > 0 ? other.join(' ') : 'Please correct the highlighted fields' });
      } else {
        onRefused(error, (text) => setStatus({ tone: 'error', text }));
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="card sell-card" onSubmit={save} noValidate aria-labelledby={`${idBase}-title`} data-dossier-form={idBase} data-testid="edit-dossier">
      <h2 id={`${idBase}-title`} className="sell-card__title">
        Dossier
      </h2>
      <p className="muted sell-card__lead">What buyers are promised: frozen into each escrow order, and checked item by item when the car arrives.</p>
      <DossierFields idBase={idBase} form={form} car={{ make: car.make, year: car.year }} invoices={invoices} disabled={locked} />
      <SaveActions status={status} statusTestId="dossier-save-status" saving={saving} locked={locked} label="Save Dossier" />
    </form>
  );
}

/** The listing's documents: each upload goes up at once with its kind and title; removal asks the server. */
export function EditListingDocuments({ car, locked, refresh, onRefused }: EditFilesSectionProps) {
  const idBase = useId();
  const uploads = useDocumentUploads();
  const [problems, setProblems] = useState<string[]>([]);
  const { busy, error, run } = useListingChange({ refresh, onRefused });

  return (
    <section className="card sell-card" aria-labelledby={`${idBase}-title`} data-testid="edit-documents">
      <h2 id={`${idBase}-title`} className="sell-card__title">
        Documents
      </h2>
      {error && (
        <Alert tone="error" testId="document-remove-error">
          <p>{error}</p>
        </Alert>
      )}
      {car.dossier.documents.length === 0 && uploads.documents.length === 0 && (
        <p className="muted">No documents yet. Service invoices, an inspection report and the title build a buyer&apos;s trust.</p>
      )}
      <DocumentsField
        idBase={idBase}
        onServer={car.dossier.documents}
        uploads={uploads}
        later={false}
        carId={car.id}
        disabled={locked || busy}
        problems={problems}
        onPick={(files) => setProblems(uploads.add(files, car.dossier.documents.length))}
        onRemoveServer={(document) => void run(() => removeDocument(car.id, document.id))}
        onUploaded={(_document, key) => {
          // Show it from the server's answer, then let go of the local row.
          void refresh().then(() => uploads.remove(key));
        }}
      />
    </section>
  );
}
