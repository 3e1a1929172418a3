import { useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import type { LocalPhoto } from '../hooks/use-photo-queue.ts';
import type { DocumentUploads } from '../hooks/use-document-uploads.ts';
import type { DossierForm } from '../hooks/use-dossier-form.ts';
import type { ListingForm } from '../hooks/use-listing-form.ts';
import type { PublishFlow } from '../hooks/use-publish-listing.ts';
import { formatFileSize } from '../lib/photo-list.ts';
import { DocumentsField } from './documents-field.tsx';
import { DossierFields, type InvoiceChoice } from './dossier-fields.tsx';
import { CarIdentityFields, DescriptionFields, PriceFields } from './listing-fields.tsx';
import { PhotoDropZone } from './photo-drop-zone.tsx';
import { PhotoGrid, type PhotoTile } from './photo-grid.tsx';
import { UnverifiedSellerNotice } from './unverified-seller-notice.tsx';

function photoTiles(photos: readonly LocalPhoto[]): PhotoTile[] {
  return photos.map((p) => ({ key: p.id, src: p.url, name: p.file.name, detail: formatFileSize(p.file.size) }));
}

/** One titled card of the details form. */
function SellCard({ id, title, lead, children }: { id: string; title: string; lead?: string; children: ReactNode }) {
  return (
    <section className="card sell-card" aria-labelledby={id}>
      <h3 id={id} className="sell-card__title">
        {title}
      </h3>
      {lead && <p className="muted sell-card__lead">{lead}</p>}
      {children}
    </section>
  );
}

/** The documents picked here, as a service record's invoice can name them. */
export function localInvoiceChoices(documents: DocumentUploads['documents']): InvoiceChoice[] {
  return documents.map((d) => ({ value: d.uploaded ? `doc:${d.uploaded.id}` : `local:${d.key}`, label: d.title.trim() || d.file.name }));
}

/** Step 1: the car, how it is sold, its description and the photos, checked as they are typed. */
export function SellDetailsStep({
  idBase,
  headingRef,
  form,
  dossier,
  dossierCar,
  uploads,
  documents,
  verified,
  formError,
  pickProblems,
  onPickProblems,
  onSubmit,
}: {
  idBase: string;
  headingRef: Ref<HTMLHeadingElement>;
  form: ListingForm;
  dossier: DossierForm;
  dossierCar: { make: string; year: number | null };
  uploads: PublishFlow['uploads'];
  documents: DocumentUploads;
  verified: boolean;
  /** Why the server refused the listing as a whole. */
  formError: string | null;
  /** Why some of the files picked last were not taken. */
  pickProblems: string[];
  onPickProblems: (problems: string[]) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const fields = { idBase, values: form.values, errors: form.errors, onChange: form.onChange, onBlur: form.onBlur };
  const [documentProblems, setDocumentProblems] = useState<string[]>([]);
  return (
    <form className="sell-form" onSubmit={onSubmit} noValidate aria-labelledby={`${idBase}-details-title`}>
      <h2 id={`${idBase}-details-title`} ref={headingRef} tabIndex={-1} className="sr-only">
        Details and photos
      </h2>
      {!verified && <UnverifiedSellerNotice />}
      {formError && (
        <Alert tone="error" testId="sell-form-error">
          <p>{formError}</p>
        </Alert>
      )}
      <SellCard id={`${idBase}-section-car`} title="The car">
        <CarIdentityFields {...fields} />
      </SellCard>
      <SellCard id={`${idBase}-section-price`} title="How you sell, price and condition">
        <PriceFields {...fields} saleChoice />
      </SellCard>
      <SellCard id={`${idBase}-section-about`} title="Description and features">
        <DescriptionFields {...fields} featureDraft={form.featureDraft} onFeatureDraft={form.setFeatureDraft} />
      </SellCard>
      <SellCard
        id={`${idBase}-section-dossier`}
        title="The dossier"
        lead="What buyers are promised: frozen into the escrow order, and checked item by item when the car arrives."
      >
        <DossierFields idBase={idBase} form={dossier} car={dossierCar} invoices={localInvoiceChoices(documents.documents)} />
      </SellCard>
      <SellCard id={`${idBase}-section-documents`} title="Documents">
        <DocumentsField
          idBase={idBase}
          onServer={documents.documents.flatMap((d) => (d.uploaded ? [d.uploaded] : []))}
          uploads={documents}
          later
          problems={documentProblems}
          onPick={(files) => setDocumentProblems(documents.add(files, 0))}
          onRemovedLocal={(key) => dossier.detachDocument(`local:${key}`)}
        />
      </SellCard>
      <SellCard id={`${idBase}-section-photos`} title="Photos">
        <PhotoDropZone count={uploads.photos.length} onFiles={(files) => onPickProblems(uploads.add(files))} problems={pickProblems} />
        <PhotoGrid
          tiles={photoTiles(uploads.photos)}
          label="Chosen photos, cover photo first"
          onMove={uploads.move}
          onRemove={(index) => {
            const photo = uploads.photos[index];
            if (photo) uploads.remove(photo.id);
          }}
        />
      </SellCard>
      <div className="sell-actions">
        <p className="sell-actions__note">Nothing is published until you confirm on the next step.</p>
        <button type="submit" className="btn btn--primary btn--lg">
          Preview Listing
        </button>
      </div>
    </form>
  );
}
