import { DOCUMENT_MAX_SIZE, DOCUMENT_TYPE_NAMES } from '@common/dossier.ts';
import type { DossierDocument } from '@common/schemas/dossier.ts';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { CheckIcon, FileTextIcon, RefreshIcon, TrashIcon, UploadIcon } from '../../../components/ui/icons.tsx';
import { formatFileSize } from '../../../lib/quantities.ts';
import type { DocumentUploads, LocalDocument } from '../hooks/use-document-uploads.ts';
import { DOCUMENT_ACCEPT, DOCUMENT_KIND_LABELS, DOCUMENT_KIND_OPTIONS, DOSSIER_LIMITS, type DocumentKind } from '../lib/dossier-form.ts';
import { FilePicker } from './file-picker.tsx';

/** "Waiting", "Uploading 45%", "Checking...", "Uploaded" or "Failed". */
export function documentStatusText(document: Pick<LocalDocument, 'status' | 'progress'>, later: boolean): string {
  switch (document.status) {
    case 'waiting':
      return later ? 'Uploaded when you publish' : 'Ready to upload';
    case 'uploading':
      return document.progress >= 1 ? 'Checking...' : `Uploading ${Math.round(document.progress * 100)}%`;
    case 'done':
      return 'Uploaded';
    case 'failed':
      return 'Failed';
  }
}

/**
 * The listing's documents (service invoices, inspection reports, title, history): those on the
 * server with an open link, and those picked here, each with its kind, title and upload progress.
 * `later`: the listing does not exist yet, so picked documents go up when it is published;
 * otherwise each goes up with its Upload button.
 */
export function DocumentsField({
  idBase,
  onServer,
  uploads,
  later,
  carId,
  disabled,
  problems,
  onPick,
  onRemoveServer,
  onUploaded,
  onRemovedLocal,
}: {
  idBase: string;
  onServer: readonly DossierDocument[];
  uploads: DocumentUploads;
  later: boolean;
  carId?: number;
  disabled?: boolean;
  problems: readonly string[];
  onPick: (files: File[]) => void;
  onRemoveServer?: (document: DossierDocument) => void;
  onUploaded?: (document: DossierDocument, key: string) => void;
  /** A picked document was dropped before it went up. */
  onRemovedLocal?: (key: string) => void;
}) {
  const pending = uploads.documents.filter((d) => !d.uploaded);
  const total = onServer.length + pending.length;
  const full = total >= DOSSIER_LIMITS.maxDocuments;

  async function upload(key: string) {
    if (carId === undefined) return;
    const uploaded = await uploads.upload(carId, key);
    if (uploaded) onUploaded?.(uploaded, key);
  }

  return (
    <div className="sell-stack documents-field" data-testid="documents-field">
      {onServer.length > 0 && (
        <ul className="document-rows" aria-label="Documents of the listing">
          {onServer.map((document) => (
            <li key={document.id} className="document-row" data-testid="server-document">
              <span className="icon-disc document-row__icon" aria-hidden="true">
                <FileTextIcon size={18} />
              </span>
              <div className="document-row__main">
                <a className="text-link document-row__title" href={document.url} target="_blank" rel="noopener noreferrer">
                  {document.title}
                </a>
                <p className="document-row__meta">
                  {DOCUMENT_KIND_LABELS[document.kind]} · {formatFileSize(document.bytes)}
                </p>
              </div>
              {onRemoveServer && (
                <button type="button" className="btn btn--outline btn--sm" disabled={disabled} onClick={() => onRemoveServer(document)}>
                  <TrashIcon size={16} />
                  Remove<span className="sr-only"> {document.title}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      {pending.length > 0 && (
        <ol className="document-rows" aria-label="Documents to upload">
          {pending.map((document) => (
            <PendingDocument
              key={document.key}
              idBase={`${idBase}-doc-${document.key}`}
              document={document}
              later={later}
              disabled={disabled}
              onChange={(change) => uploads.update(document.key, change)}
              onUpload={() => void upload(document.key)}
              onRemove={() => {
                uploads.remove(document.key);
                onRemovedLocal?.(document.key);
              }}
            />
          ))}
        </ol>
      )}

      <div className="document-pick">
        <FilePicker
          accept={DOCUMENT_ACCEPT}
          disabled={disabled || full}
          onFiles={onPick}
          problems={problems}
          buttonClassName={disabled || full ? 'btn btn--outline is-disabled' : 'btn btn--outline'}
          button={
            <>
              <UploadIcon size={18} />
              Choose Documents
            </>
          }
          hintClassName="field__hint muted"
          hint={
            <>
              {DOCUMENT_TYPE_NAMES}, up to {DOCUMENT_MAX_SIZE} each, at most {DOSSIER_LIMITS.maxDocuments} documents ({total} of {DOSSIER_LIMITS.maxDocuments}).
              Buyers can open them from the car page.
            </>
          }
        />
      </div>
    </div>
  );
}

function PendingDocument({
  idBase,
  document,
  later,
  disabled,
  onChange,
  onUpload,
  onRemove,
}: {
  idBase: string;
  document: LocalDocument;
  later: boolean;
  disabled?: boolean;
  onChange: (change: { kind?: DocumentKind; title?: string }) => void;
  onUpload: () => void;
  onRemove: () => void;
}) {
  const busy = document.status === 'uploading';
  const percent = Math.round(document.progress * 100);
  const text = documentStatusText(document, later);
  const name = document.file.name;
  return (
    <li className={`document-row document-row--pending upload-row--${document.status}`} data-testid="pending-document" data-status={document.status}>
      <span className="icon-disc document-row__icon" aria-hidden="true">
        <FileTextIcon size={18} />
      </span>
      <div className="document-row__main">
        <p className="document-row__file" title={name}>
          {name}
          <span className="upload-row__size"> · {formatFileSize(document.file.size)}</span>
        </p>
        <div className="sell-grid">
          <SelectField
            id={`${idBase}-kind`}
            className="sell-field"
            label="Kind"
            options={DOCUMENT_KIND_OPTIONS}
            value={document.kind}
            disabled={disabled || busy}
            onChange={(kind) => onChange({ kind: kind as DocumentKind })}
          />
          <TextField
            id={`${idBase}-title`}
            className="sell-field"
            label="Title"
            autoComplete="off"
            maxLength={DOSSIER_LIMITS.documentTitle}
            value={document.title}
            disabled={disabled || busy}
            onChange={(title) => onChange({ title })}
          />
        </div>
        {document.status !== 'waiting' && (
          <div
            className="upload-row__bar"
            role="progressbar"
            aria-label={`Upload of ${name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={document.status === 'failed' ? 0 : percent}
            aria-valuetext={text}
          >
            <span style={{ width: `${document.status === 'failed' ? 100 : percent}%` }} />
          </div>
        )}
        <p className="icon-text upload-row__status" data-testid="document-status">
          {document.status === 'done' && <CheckIcon size={15} />}
          {text}
        </p>
        {document.status === 'failed' && document.error && (
          <p className="field__hint field__hint--error" role="alert" data-testid="document-error">
            {document.error}
          </p>
        )}
      </div>
      <div className="cluster document-row__actions">
        {!later && (
          <button type="button" className="btn btn--primary btn--sm" disabled={disabled || busy} onClick={onUpload}>
            {document.status === 'failed' ? <RefreshIcon size={16} /> : <UploadIcon size={16} />}
            {document.status === 'failed' ? 'Retry' : 'Upload'}
            <span className="sr-only"> {name}</span>
          </button>
        )}
        {later && document.status === 'failed' && (
          <span className="sr-only">It is sent again when you publish.</span>
        )}
        <button type="button" className="btn btn--outline btn--sm" disabled={busy} onClick={onRemove}>
          <TrashIcon size={16} />
          Remove<span className="sr-only"> {name}</span>
        </button>
      </div>
    </li>
  );
}
