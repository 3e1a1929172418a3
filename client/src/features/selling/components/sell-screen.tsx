import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { PageHero } from '../../../components/ui/page-hero.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { useSessionStore, type SessionUser } from '../../../lib/session-store.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useRefreshUnverifiedUser } from '../../../lib/use-refresh-unverified-user.ts';
import { createListing, publishListing, reorderPhotos } from '../api/selling-api.ts';
import { usePhotoQueue, type LocalPhoto } from '../hooks/use-photo-queue.ts';
import {
  defaultAuctionEnd,
  EMPTY_LISTING,
  errorsFromDetails,
  featureError,
  LISTING_FIELDS,
  toNewListing,
  validateListing,
  type ListingErrors,
  type ListingField,
  type ListingFormValues,
} from '../lib/listing-form.ts';
import { formatFileSize } from '../lib/photo-list.ts';
import { galleryOrder } from '../lib/upload-queue.ts';
import { CarIdentityFields, DescriptionFields, fieldIds, PriceFields } from './listing-fields.tsx';
import { ListingPreview } from './listing-preview.tsx';
import { PhotoDropZone } from './photo-drop-zone.tsx';
import { PhotoGrid, type PhotoTile } from './photo-grid.tsx';
import { UploadList } from './upload-list.tsx';
import { UnverifiedSellerNotice } from './unverified-seller-notice.tsx';
import './selling.css';

type Step = 'details' | 'preview' | 'publish';
type Phase = 'idle' | 'creating' | 'create-failed' | 'uploading' | 'finishing' | 'finish-failed';

const STEPS: readonly { id: Step; label: string }[] = [
  { id: 'details', label: 'Details and photos' },
  { id: 'preview', label: 'Preview' },
  { id: 'publish', label: 'Publish' },
];

/** `/sell`: signed-in users only; anyone else is sent to /login and brought back after. */
export function SellScreen() {
  useDocumentTitle('Sell Your Car');
  useRefreshUnverifiedUser();
  const location = useLocation();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const user = useSessionStore((s) => s.user);
  if (!isAuthenticated || !user) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from }} />;
  }
  return <SellFlow user={user} />;
}

function photoTiles(photos: readonly LocalPhoto[]): PhotoTile[] {
  return photos.map((p) => ({ key: p.id, src: p.url, name: p.file.name, detail: formatFileSize(p.file.size) }));
}

/**
 * Listing a car in three steps: the details and photos (checked as they are typed), a preview
 * of the card and the car page, then publishing: the listing is created as a draft, the photos
 * go up one by one in the chosen order, and the draft is published and opened. A draft left
 * half-way waits in the dashboard's My Listings.
 */
function SellFlow({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const idBase = useId();
  const titleId = useId();
  const verified = user.email_verified;

  const [values, setValues] = useState<ListingFormValues>(EMPTY_LISTING);
  const [featureDraft, setFeatureDraft] = useState('');
  const [dirty, setDirty] = useState<ReadonlySet<ListingField>>(() => new Set());
  const [touched, setTouched] = useState<ReadonlySet<ListingField>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ListingErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pickProblems, setPickProblems] = useState<string[]>([]);

  const [step, setStep] = useState<Step>('details');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const stepChanged = useRef(false);

  const [phase, setPhase] = useState<Phase>('idle');
  const [publishError, setPublishError] = useState<string | null>(null);
  const [draftId, setDraftId] = useState<number | null>(null);
  const draftRef = useRef<number | null>(null);
  const createKey = useRef<{ key: string; body: string } | null>(null);
  const finishing = useRef(false);

  const uploads = usePhotoQueue({
    onIdle: (summary) => {
      if (summary.complete) void finish();
    },
  });

  // Each step opens at its heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    if (!stepChanged.current) return;
    headingRef.current?.focus();
  }, [step]);

  // Leaving while photos are going up would lose them: ask first.
  const busy = phase === 'creating' || phase === 'uploading' || phase === 'finishing';
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  function go(next: Step) {
    stepChanged.current = true;
    setStep(next);
  }

  const liveErrors = validateListing(values);
  const shownErrors: ListingErrors = {};
  for (const field of LISTING_FIELDS) {
    const message = serverErrors[field] ?? ((submitted || touched.has(field)) && liveErrors[field]);
    if (message) shownErrors[field] = message;
  }

  function onChange<F extends ListingField>(field: F, value: ListingFormValues[F]) {
    setValues((v) => {
      const next = { ...v, [field]: value };
      // Choosing an auction suggests an end (a week ahead), which the seller can change.
      if (field === 'saleType' && value === 'auction' && !v.auctionEnds) next.auctionEnds = defaultAuctionEnd();
      return next;
    });
    setDirty((d) => (d.has(field) ? d : new Set(d).add(field)));
    // A choice is made at once; text counts once the field is left.
    if (field === 'bodyStyle' || field === 'condition' || field === 'features' || field === 'saleType' || field === 'auctionEnds') {
      setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
    }
    setServerErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  }

  function onBlur(field: ListingField) {
    if (dirty.has(field)) setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  }

  function focusFirst(errors: ListingErrors) {
    const first = LISTING_FIELDS.find((f) => errors[f]);
    if (first) document.getElementById(fieldIds(idBase, first).input)?.focus();
  }

  function toPreview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let next = values;
    // A feature typed but not added yet is meant to be in the list.
    if (featureDraft.trim() && !featureError(featureDraft, values.features)) {
      next = { ...values, features: [...values.features, featureDraft.trim()] };
      setValues(next);
      setFeatureDraft('');
    }
    setSubmitted(true);
    setFormError(null);
    const errors = { ...validateListing(next), ...serverErrors };
    if (LISTING_FIELDS.some((f) => errors[f])) {
      focusFirst(errors);
      return;
    }
    go('preview');
  }

  async function publish() {
    if (!verified || busy) return;
    go('publish');
    setPublishError(null);
    let id = draftRef.current;
    if (id === null) {
      setPhase('creating');
      const body = toNewListing(values, true);
      const json = JSON.stringify(body);
      // The same body retried (say after a lost answer) keeps its key, so it creates one listing.
      if (createKey.current?.body !== json) createKey.current = { key: newIdempotencyKey(), body: json };
      try {
        const car = await createListing(body, createKey.current.key);
        id = car.id;
        draftRef.current = id;
        setDraftId(id);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'VALIDATION_FAILED') {
          const { fields, other } = errorsFromDetails(error.details);
          setServerErrors(fields);
          setFormError(other.length > 0 ? other.join(' ') : 'Please correct the highlighted fields');
          setPhase('idle');
          setSubmitted(true);
          go('details');
          return;
        }
        setPhase('create-failed');
        setPublishError(errorMessage(error));
        return;
      }
    }
    setPhase('uploading');
    uploads.start(id);
  }

  async function finish() {
    const id = draftRef.current;
    if (id === null || finishing.current) return;
    finishing.current = true;
    setPhase('finishing');
    setPublishError(null);
    try {
      const { photos, queue } = uploads.snapshot();
      const order = galleryOrder(
        photos.map((p) => p.id),
        queue,
      );
      if (order) await reorderPhotos(id, order);
      await publishListing(id);
      navigate(`/car/${id}`);
    } catch (error) {
      setPhase('finish-failed');
      setPublishError(errorMessage(error));
    } finally {
      finishing.current = false;
    }
  }

  const listing = step === 'details' ? null : toNewListing(values, true);
  const stepIndex = STEPS.findIndex((s) => s.id === step);

  return (
    <div className="sell-page" data-testid="sell-page">
      <PageHero
        eyebrow="Sell your car"
        title="List your car with LuxeMotors"
        titleId={titleId}
        lead="Reach buyers of premium and luxury cars. Every sale is paid through escrow, so you are paid once the buyer has approved the car."
        overlap
      />
      <div className="container page-overlap sell-body">
        <ol className="sell-steps" aria-label="Steps">
          {STEPS.map((s, i) => (
            <li
              key={s.id}
              className={i < stepIndex ? 'sell-steps__step is-done' : i === stepIndex ? 'sell-steps__step is-current' : 'sell-steps__step'}
              aria-current={i === stepIndex ? 'step' : undefined}
            >
              <span className="sell-steps__number" aria-hidden="true">
                {i < stepIndex ? <CheckIcon size={16} /> : i + 1}
              </span>
              <span className="sell-steps__label">{s.label}</span>
            </li>
          ))}
        </ol>

        {step === 'details' && (
          <form className="sell-form" onSubmit={toPreview} noValidate aria-labelledby={`${idBase}-details-title`}>
            <h2 id={`${idBase}-details-title`} ref={headingRef} tabIndex={-1} className="sr-only">
              Details and photos
            </h2>
            {!verified && <UnverifiedSellerNotice />}
            {formError && (
              <Alert tone="error" testId="sell-form-error">
                <p>{formError}</p>
              </Alert>
            )}
            <section className="sell-card" aria-labelledby={`${idBase}-section-car`}>
              <h3 id={`${idBase}-section-car`} className="sell-card__title">
                The car
              </h3>
              <CarIdentityFields idBase={idBase} values={values} errors={shownErrors} onChange={onChange} onBlur={onBlur} />
            </section>
            <section className="sell-card" aria-labelledby={`${idBase}-section-price`}>
              <h3 id={`${idBase}-section-price`} className="sell-card__title">
                How you sell, price and condition
              </h3>
              <PriceFields idBase={idBase} values={values} errors={shownErrors} onChange={onChange} onBlur={onBlur} saleChoice />
            </section>
            <section className="sell-card" aria-labelledby={`${idBase}-section-about`}>
              <h3 id={`${idBase}-section-about`} className="sell-card__title">
                Description and features
              </h3>
              <DescriptionFields
                idBase={idBase}
                values={values}
                errors={shownErrors}
                onChange={onChange}
                onBlur={onBlur}
                featureDraft={featureDraft}
                onFeatureDraft={setFeatureDraft}
              />
            </section>
            <section className="sell-card" aria-labelledby={`${idBase}-section-photos`}>
              <h3 id={`${idBase}-section-photos`} className="sell-card__title">
                Photos
              </h3>
              <PhotoDropZone
                count={uploads.photos.length}
                onFiles={(files) => setPickProblems(uploads.add(files))}
                problems={pickProblems}
              />
              <PhotoGrid
                tiles={photoTiles(uploads.photos)}
                label="Chosen photos, cover photo first"
                onMove={uploads.move}
                onRemove={(index) => {
                  const photo = uploads.photos[index];
                  if (photo) uploads.remove(photo.id);
                }}
              />
            </section>
            <div className="sell-actions">
              <p className="sell-actions__note">Nothing is published until you confirm on the next step.</p>
              <button type="submit" className="btn btn--primary btn--lg">
                Preview Listing
              </button>
            </div>
          </form>
        )}

        {step === 'preview' && listing && (
          <section className="sell-preview" aria-labelledby={`${idBase}-preview-title`}>
            <div className="sell-section-head">
              <h2 id={`${idBase}-preview-title`} ref={headingRef} tabIndex={-1} className="sell-section-head__title">
                Preview listing
              </h2>
              <p className="muted">This is how buyers will see your car. Go back to change anything.</p>
            </div>
            {!verified && <UnverifiedSellerNotice />}
            <ListingPreview listing={listing} photos={uploads.photos} sellerName={user.name} />
            <div className="sell-actions">
              <button type="button" className="btn btn--outline btn--lg" onClick={() => go('details')}>
                Back to Edit
              </button>
              <button type="button" className="btn btn--primary btn--lg" onClick={() => void publish()} disabled={!verified}>
                Publish Listing
              </button>
            </div>
          </section>
        )}

        {step === 'publish' && (
          <section className="sell-card sell-publish" aria-labelledby={`${idBase}-publish-title`} data-testid="publish-panel">
            <h2 id={`${idBase}-publish-title`} ref={headingRef} tabIndex={-1} className="sell-section-head__title">
              Publishing your listing
            </h2>
            <ol className="publish-steps">
              <PublishStep
                state={phase === 'creating' ? 'active' : phase === 'create-failed' ? 'failed' : draftId !== null ? 'done' : 'waiting'}
                label="Saving your listing"
              />
              <PublishStep
                state={
                  draftId === null
                    ? 'waiting'
                    : uploads.summary.complete
                      ? 'done'
                      : uploads.summary.failed > 0 && uploads.summary.active === 0
                        ? 'failed'
                        : 'active'
                }
                label={
                  uploads.summary.total === 0
                    ? 'No photos to upload'
                    : `Uploading photos (${uploads.summary.done} of ${uploads.summary.total})`
                }
              >
                <UploadList
                  photos={uploads.photos}
                  queue={uploads.queue}
                  onRetry={uploads.retry}
                  onRemove={uploads.remove}
                  label="Photo uploads"
                />
              </PublishStep>
              <PublishStep
                state={phase === 'finishing' ? 'active' : phase === 'finish-failed' ? 'failed' : 'waiting'}
                label="Putting it on the market"
              />
            </ol>

            {publishError && (
              <Alert tone="error" testId="publish-error">
                <p>{publishError}</p>
              </Alert>
            )}
            {uploads.summary.failed > 0 && uploads.summary.active === 0 && (
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
                  <button type="button" className="btn btn--outline btn--lg" onClick={() => go('preview')}>
                    Back to Preview
                  </button>
                  <button type="button" className="btn btn--primary btn--lg" onClick={() => void publish()}>
                    Try Again
                  </button>
                </>
              )}
              {phase === 'finish-failed' && (
                <button type="button" className="btn btn--primary btn--lg" onClick={() => void finish()}>
                  Try Again
                </button>
              )}
            </div>
          </section>
        )}
      </div>
    </div>
  );
}

function PublishStep({
  state,
  label,
  children,
}: {
  state: 'waiting' | 'active' | 'done' | 'failed';
  label: string;
  children?: ReactNode;
}) {
  const words = { waiting: 'Not started', active: 'In progress', done: 'Done', failed: 'Needs attention' } as const;
  return (
    <li className={`publish-step publish-step--${state}`} data-state={state}>
      <span className="publish-step__marker" aria-hidden="true">
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
