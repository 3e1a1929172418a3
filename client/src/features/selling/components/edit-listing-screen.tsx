import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { ArrowLeftIcon, EyeIcon, LockIcon } from '../../../components/ui/icons.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { ApiError, errorMessage, isAbortError } from '../../../lib/api-client.ts';
import {
  canWithdraw,
  isListingLocked,
  listingLockedReason,
  listingStatusLabel,
  listingStatusTone,
} from '../../../lib/listing-status.ts';
import { parseRouteId } from '../../../lib/route-id.ts';
import { useSessionStore, type SessionUser } from '../../../lib/session-store.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useRefreshUnverifiedUser } from '../../../lib/use-refresh-unverified-user.ts';
import {
  getListing,
  publishListing,
  removePhoto,
  reorderPhotos,
  updateListing,
  withdrawListing,
  type CarDetail,
} from '../api/selling-api.ts';
import { usePhotoQueue } from '../hooks/use-photo-queue.ts';
import {
  EDITABLE_FIELDS,
  errorsFromDetails,
  featureError,
  listingChanges,
  listingFormValues,
  validateListing,
  type ListingErrors,
  type ListingField,
  type ListingFormValues,
} from '../lib/listing-form.ts';
import { moveItem, movedOrder, removeItem } from '../lib/photo-list.ts';
import { DescriptionFields, fieldIds, PriceFields } from './listing-fields.tsx';
import { PhotoDropZone } from './photo-drop-zone.tsx';
import { PhotoGrid, type PhotoTile } from './photo-grid.tsx';
import { UnverifiedSellerNotice } from './unverified-seller-notice.tsx';
import { UploadList } from './upload-list.tsx';
import './selling.css';

/** `/sell/:id/edit`: the seller's own listing; anyone else sees that there is no such listing. */
export function EditListingScreen() {
  useRefreshUnverifiedUser();
  const location = useLocation();
  const { id } = useParams();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const user = useSessionStore((s) => s.user);
  if (!isAuthenticated || !user) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from }} />;
  }
  const carId = parseRouteId(id);
  if (carId === null) return <ListingNotFound />;
  return <EditListing key={`${carId}:${user.id}`} carId={carId} user={user} />;
}

function ListingNotFound() {
  useDocumentTitle('Listing Not Found');
  return (
    <section className="container page not-found" aria-labelledby="listing-not-found-title">
      <h1 id="listing-not-found-title" className="page-title">
        Listing Not Found
      </h1>
      <p className="muted">This listing does not exist, or it is not one of yours.</p>
      <div className="not-found__actions">
        <Link to="/dashboard?tab=listings" className="btn btn--dark">
          Go to My Listings
        </Link>
      </div>
    </section>
  );
}

/** Sets the title from a branch (a parent's effect would run after, and win over, its child's). */
function DocumentTitle({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'not-found' } | { status: 'ready'; car: CarDetail };

function photoTiles(car: CarDetail): PhotoTile[] {
  if (car.photos.length > 0) {
    return car.photos.map((p, i) => ({ key: p.card.webp, src: p.card.webp, name: `Photo ${i + 1}`, width: p.width, height: p.height }));
  }
  return car.images.map((url, i) => ({ key: url, src: url, name: `Photo ${i + 1}` }));
}

/** The car with its gallery in a new order (shown at once, while the server is asked). */
function withPhotoMove(car: CarDetail, from: number, to: number): CarDetail {
  return { ...car, photos: [...moveItem(car.photos, from, to)], images: [...moveItem(car.images, from, to)] };
}

function withoutPhoto(car: CarDetail, index: number): CarDetail {
  return { ...car, photos: [...removeItem(car.photos, index)], images: [...removeItem(car.images, index)] };
}

function EditListing({ carId, user }: { carId: number; user: SessionUser }) {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getListing(carId, controller.signal)
      .then((car) => setLoad(car.seller.userId === user.id ? { status: 'ready', car } : { status: 'not-found' }))
      .catch((error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        setLoad(error instanceof ApiError && error.status === 404 ? { status: 'not-found' } : { status: 'error', message: errorMessage(error) });
      });
    return () => controller.abort();
  }, [carId, user.id, attempt]);

  const replace = useCallback((car: CarDetail) => setLoad({ status: 'ready', car }), []);

  if (load.status === 'not-found') return <ListingNotFound />;
  if (load.status === 'loading') {
    return (
      <div className="container page">
        <DocumentTitle title="Edit Listing" />
        <LoadingStatus label="Loading your listing..." />
      </div>
    );
  }
  if (load.status === 'error') {
    return (
      <section className="container page">
        <DocumentTitle title="Edit Listing" />
        <div className="notice notice--error" role="alert">
          <p>{load.message}</p>
          <button
            type="button"
            className="btn btn--dark"
            onClick={() => {
              setLoad({ status: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            Retry
          </button>
        </div>
      </section>
    );
  }
  return <EditListingView car={load.car} user={user} onCar={replace} />;
}

function EditListingView({ car, user, onCar }: { car: CarDetail; user: SessionUser; onCar: (car: CarDetail) => void }) {
  const navigate = useNavigate();
  const titleId = useId();
  const title = `${car.year} ${car.make} ${car.model}`;
  useDocumentTitle(`Edit ${title}`);
  const locked = isListingLocked(car.status);
  const lockedReason = listingLockedReason(car.status);
  const verified = user.email_verified;

  const [publishing, setPublishing] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [withdrawOpen, setWithdrawOpen] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  const [withdrawError, setWithdrawError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function refresh(): Promise<void> {
    try {
      onCar(await getListing(car.id));
    } catch {
      // The next action will say what is wrong.
    }
  }

  /** A 409 LISTING_LOCKED (or any refusal) re-reads the listing so the page shows why. */
  function onRefused(error: unknown, show: (message: string) => void) {
    show(errorMessage(error));
    if (error instanceof ApiError && (error.code === 'LISTING_LOCKED' || error.status === 409)) void refresh();
  }

  async function publish() {
    setPublishing(true);
    setActionError(null);
    try {
      await publishListing(car.id);
      navigate(`/car/${car.id}`);
    } catch (error) {
      setPublishing(false);
      onRefused(error, setActionError);
    }
  }

  async function withdraw() {
    setWithdrawing(true);
    setWithdrawError(null);
    try {
      onCar(await withdrawListing(car.id));
      setWithdrawOpen(false);
      setNotice('Your listing was withdrawn. It is off the market, and people watching it have been told.');
    } catch (error) {
      onRefused(error, setWithdrawError);
    } finally {
      setWithdrawing(false);
    }
  }

  return (
    <div className="container page edit-listing" data-testid="edit-listing">
      <Link to="/dashboard?tab=listings" className="edit-listing__back">
        <ArrowLeftIcon size={18} />
        Back to My Listings
      </Link>
      <header className="edit-listing__header">
        <div>
          <p className="eyebrow eyebrow--dark">Edit listing</p>
          <h1 id={titleId} className="page-title edit-listing__title">
            {title}
          </h1>
          <p className="edit-listing__meta">
            <span className={`status-badge status-badge--${listingStatusTone(car.status)}`} data-testid="listing-status">
              {listingStatusLabel(car.status)}
            </span>
            <span>
              {car.bodyStyle ? `${car.bodyStyle[0]!.toUpperCase()}${car.bodyStyle.slice(1)} · ` : ''}Asking {formatUsd(car.price)}
            </span>
          </p>
        </div>
        {car.status !== 'draft' && (
          <Link to={`/car/${car.id}`} className="btn btn--outline">
            <EyeIcon size={18} />
            View Listing
          </Link>
        )}
      </header>

      {!verified && <UnverifiedSellerNotice />}
      {notice && (
        <Alert tone="success" testId="edit-notice">
          <p>{notice}</p>
        </Alert>
      )}
      {lockedReason && (
        <Alert tone="info" title="This listing is locked" testId="listing-locked">
          <p>{lockedReason}</p>
        </Alert>
      )}

      <div className="edit-listing__layout">
        <div className="edit-listing__main">
          <DetailsForm key={`${car.id}`} car={car} locked={locked} onSaved={onCar} onRefused={onRefused} />
          <PhotosCard car={car} locked={locked} onCar={onCar} refresh={refresh} onRefused={onRefused} />
        </div>

        <aside className="edit-listing__aside" aria-label="Listing status and actions">
          <section className="sell-card edit-status">
            <h2 className="sell-card__title">
              {car.status === 'draft' ? 'Ready to publish?' : locked ? (
                <>
                  <LockIcon size={18} /> Locked
                </>
              ) : (
                'On the market'
              )}
            </h2>
            <p className="muted">
              {car.status === 'draft'
                ? 'Only you can see this draft. Publish it to put it on the market; the market value is estimated from comparable cars.'
                : locked
                  ? lockedReason
                  : 'Buyers see changes at once. A lower price is sent to everyone watching the car.'}
            </p>
            {actionError && (
              <p className="field__hint field__hint--error" role="alert">
                {actionError}
              </p>
            )}
            {car.status === 'draft' && (
              <button type="button" className="btn btn--primary btn--block btn--lg" onClick={() => void publish()} disabled={publishing || !verified}>
                {publishing ? 'Publishing...' : 'Publish Listing'}
              </button>
            )}
            {canWithdraw(car.status) && (
              <button
                type="button"
                className="btn btn--outline btn--block"
                onClick={() => {
                  setWithdrawError(null);
                  setWithdrawOpen(true);
                }}
                aria-haspopup="dialog"
              >
                {car.status === 'draft' ? 'Discard Draft' : 'Withdraw Listing'}
              </button>
            )}
          </section>
        </aside>
      </div>

      <ModalDialog
        open={withdrawOpen}
        busy={withdrawing}
        onClose={() => setWithdrawOpen(false)}
        title={car.status === 'draft' ? 'Discard this draft?' : 'Withdraw this listing?'}
        subtitle={title}
        description={
          car.status === 'draft'
            ? 'The draft is withdrawn and can no longer be published.'
            : 'The car leaves the market at once. Unpaid orders for it are cancelled and everyone watching it is told. A withdrawn listing cannot be put back.'
        }
        testId="withdraw-dialog"
      >
        {withdrawError && (
          <Alert tone="error">
            <p>{withdrawError}</p>
          </Alert>
        )}
        <div className="modal-dialog__actions">
          <button type="button" className="btn btn--outline" onClick={() => setWithdrawOpen(false)} disabled={withdrawing} data-autofocus>
            Keep Listing
          </button>
          <button type="button" className="btn btn--danger" onClick={() => void withdraw()} disabled={withdrawing}>
            {withdrawing ? 'Withdrawing...' : car.status === 'draft' ? 'Discard Draft' : 'Withdraw Listing'}
          </button>
        </div>
      </ModalDialog>
    </div>
  );
}

function DetailsForm({
  car,
  locked,
  onSaved,
  onRefused,
}: {
  car: CarDetail;
  locked: boolean;
  onSaved: (car: CarDetail) => void;
  onRefused: (error: unknown, show: (message: string) => void) => void;
}) {
  const idBase = useId();
  const [values, setValues] = useState<ListingFormValues>(() => listingFormValues(car));
  const [featureDraft, setFeatureDraft] = useState('');
  const [touched, setTouched] = useState<ReadonlySet<ListingField>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ListingErrors>({});
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const live = validateListing(values, EDITABLE_FIELDS);
  const errors: ListingErrors = {};
  for (const field of EDITABLE_FIELDS) {
    const message = serverErrors[field] ?? ((submitted || touched.has(field)) && live[field]);
    if (message) errors[field] = message;
  }

  function onChange<F extends ListingField>(field: F, value: ListingFormValues[F]) {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => (t.has(field) || !(field === 'condition' || field === 'features') ? t : new Set(t).add(field)));
    setServerErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
    setStatus(null);
  }

  function onBlur(field: ListingField) {
    setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || locked) return;
    let next = values;
    if (featureDraft.trim() && !featureError(featureDraft, values.features)) {
      next = { ...values, features: [...values.features, featureDraft.trim()] };
      setValues(next);
      setFeatureDraft('');
    }
    setSubmitted(true);
    const found = validateListing(next, EDITABLE_FIELDS);
    const first = EDITABLE_FIELDS.find((f) => found[f]);
    if (first) {
      document.getElementById(fieldIds(idBase, first).input)?.focus();
      return;
    }
    const changes = listingChanges(next, car);
    if (Object.keys(changes).length === 0) {
      setStatus({ tone: 'success', text: 'No changes to save.' });
      return;
    }
    setSaving(true);
    setStatus(null);
    try {
      const updated = await updateListing(car.id, changes);
      onSaved(updated);
      setValues(listingFormValues(updated));
      setStatus({ tone: 'success', text: 'Changes saved.' });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'VALIDATION_FAILED') {
        setServerErrors(errorsFromDetails(error.details).fields);
      }
      onRefused(error, (text) => setStatus({ tone: 'error', text }));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="sell-card" onSubmit={save} noValidate aria-labelledby={`${idBase}-title`}>
      <h2 id={`${idBase}-title`} className="sell-card__title">
        Details
      </h2>
      <p className="muted edit-listing__fixed">
        Make, model, year and body style stay as listed. To change them, withdraw this listing and list the car again.
      </p>
      <PriceFields idBase={idBase} values={values} errors={errors} onChange={onChange} onBlur={onBlur} disabled={locked} />
      <DescriptionFields
        idBase={idBase}
        values={values}
        errors={errors}
        onChange={onChange}
        onBlur={onBlur}
        disabled={locked}
        featureDraft={featureDraft}
        onFeatureDraft={setFeatureDraft}
      />
      <div className="sell-actions">
        <p className={status?.tone === 'error' ? 'sell-actions__status is-error' : 'sell-actions__status'} role="status" data-testid="save-status">
          {status?.text ?? ''}
        </p>
        <button type="submit" className="btn btn--primary btn--lg" disabled={saving || locked}>
          {saving ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </form>
  );
}

function PhotosCard({
  car,
  locked,
  onCar,
  refresh,
  onRefused,
}: {
  car: CarDetail;
  locked: boolean;
  onCar: (car: CarDetail) => void;
  refresh: () => Promise<void>;
  onRefused: (error: unknown, show: (message: string) => void) => void;
}) {
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pickProblems, setPickProblems] = useState<string[]>([]);
  const uploads = usePhotoQueue({
    onUploaded: (id) => {
      // Show the photo from the server, then let go of the local copy.
      void refresh().then(() => uploads.remove(id));
    },
  });
  const tiles = photoTiles(car);
  const uploading = uploads.summary.active > 0;

  async function change(optimistic: CarDetail, request: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    onCar(optimistic);
    try {
      await request();
    } catch (err) {
      onRefused(err, setError);
    } finally {
      await refresh();
      setBusy(false);
    }
  }

  return (
    <section className="sell-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="sell-card__title">
        Photos
      </h2>
      {error && (
        <Alert tone="error" testId="photo-error">
          <p>{error}</p>
        </Alert>
      )}
      {tiles.length === 0 && uploads.photos.length === 0 && <p className="muted">No photos yet. Listings with photos get far more interest.</p>}
      <PhotoGrid
        tiles={tiles}
        label="Photos of the listing, cover photo first"
        disabled={locked || busy || uploading}
        onMove={(from, to) => void change(withPhotoMove(car, from, to), () => reorderPhotos(car.id, movedOrder(tiles.length, from, to)))}
        onRemove={(index) => void change(withoutPhoto(car, index), () => removePhoto(car.id, index))}
      />
      <UploadList photos={uploads.photos} queue={uploads.queue} onRetry={uploads.retry} onRemove={uploads.remove} label="Photo uploads" />
      {!locked && (
        <PhotoDropZone
          count={tiles.length + uploads.photos.length}
          disabled={busy}
          onFiles={(files) => {
            uploads.start(car.id);
            setPickProblems(uploads.add(files, tiles.length));
          }}
          problems={pickProblems}
        />
      )}
    </section>
  );
}
