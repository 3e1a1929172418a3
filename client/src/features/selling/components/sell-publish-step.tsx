import type { ReactNode, Ref } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import type { PublishFlow } from '../hooks/use-publish-listing.ts';
import { documentStatusText } from './documents-field.tsx';
import { UploadList } from './upload-list.tsx';

type StepState = 'waiting' | 'active' | 'done' | 'failed';

function PublishStep({ state, label, children }: { state: StepState; label: string; children?: ReactNode }) {
  const words = { waiting: 'Not started', active: 'In progress', done: 'Done', failed: 'Needs attention' } as const;
  return (
    <li className={`publish-step publish-step--${state}`} data-state={state}>
      <span className="step-list__marker publish-step__marker" aria-hidden="true">
        {state === 'done' ? <CheckIcon size={16} /> : state === 'active' ? <span className="spinner publish-step__spinner" /> : null}
      </span>
      <div className="publish-step__body">
        <p className="publish-step__label">
          {label} <span className="sr-only">({words[state]})</span>
        </p>
        {children}
      </div>
    </li>
  );
}

/** Step 3: saving the draft, the photo uploads and putting it on the market, each with its state. */
export function SellPublishStep({
  idBase,
  headingRef,
  flow,
  onBackToPreview,
  onRetryCreate,
}: {
  idBase: string;
  headingRef: Ref<HTMLHeadingElement>;
  flow: PublishFlow;
  onBackToPreview: () => void;
  onRetryCreate: () => void;
}) {
  const { phase, draftId, uploads, documents, error } = flow;
  const dossierState: StepState =
    phase === 'documents' || phase === 'dossier' ? 'active' : phase === 'uploading' || phase === 'finishing' || phase === 'finish-failed' ? 'done' : 'waiting';
  const { summary } = uploads;
  const uploadState: StepState =
    draftId === null || phase === 'documents' || phase === 'dossier' ? 'waiting' : summary.complete ? 'done' : summary.failed > 0 && summary.active === 0 ? 'failed' : 'active';
  return (
    <section className="card sell-card sell-publish" aria-labelledby={`${idBase}-publish-title`} data-testid="publish-panel">
      <h2 id={`${idBase}-publish-title`} ref={headingRef} tabIndex={-1} className="sell-section-head__title">
        Publishing your listing
      </h2>
      <ol className="step-list publish-steps">
        <PublishStep
          state={phase === 'creating' ? 'active' : phase === 'create-failed' ? 'failed' : draftId !== null ? 'done' : 'waiting'}
          label="Saving your listing"
        />
        <PublishStep
          state={dossierState}
          label={documents.documents.length === 0 ? 'Saving the dossier' : `Uploading documents and saving the dossier (${documents.documents.filter((d) => d.uploaded).length} of ${documents.documents.length})`}
        >
          {documents.documents.length > 0 && (
            <ul className="publish-documents" aria-label="Document uploads">
              {documents.documents.map((d) => (
                <li key={d.key} data-testid="publish-document" data-status={d.status}>
                  {d.title} · {documentStatusText(d, false)}
                </li>
              ))}
            </ul>
          )}
        </PublishStep>
        <PublishStep
          state={uploadState}
          label={summary.total === 0 ? 'No photos to upload' : `Uploading photos (${summary.done} of ${summary.total})`}
        >
          <UploadList photos={uploads.photos} queue={uploads.queue} onRetry={uploads.retry} onRemove={uploads.remove} label="Photo uploads" />
        </PublishStep>
        <PublishStep
          state={phase === 'finishing' ? 'active' : phase === 'finish-failed' ? 'failed' : 'waiting'}
          label="Putting it on the market"
        />
      </ol>

      {error && (
        <Alert tone="error" testId="publish-error">
          <p>{error}</p>
        </Alert>
      )}
      {summary.failed > 0 && summary.active === 0 && (
        <p className="sell-publish__hint" role="status">
          Retry the photos that failed, or remove them to publish without them.
        </p>
      )}
      {draftId !== null && phase !== 'finishing' && (
        <p className="sell-publish__draft">
          Your listing is saved as a draft that only you can see. If you leave now, finish it later from{' '}
          <Link to="/dashboard?tab=listings" className="text-link">
            My Listings
          </Link>
          .
        </p>
      )}
      <div className="sell-actions">
        {phase === 'create-failed' && (
          <>
            <button type="button" className="btn btn--outline btn--lg" onClick={onBackToPreview}>
              Back to Preview
            </button>
            <button type="button" className="btn btn--primary btn--lg" onClick={onRetryCreate}>
              Try Again
            </button>
          </>
        )}
        {phase === 'finish-failed' && (
          <button type="button" className="btn btn--primary btn--lg" onClick={() => void flow.finish()}>
            Try Again
          </button>
        )}
      </div>
    </section>
  );
}
