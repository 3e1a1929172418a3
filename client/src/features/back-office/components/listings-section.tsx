import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { CarDetail } from '@common/schemas/cars.ts';
import { carPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Fact, Facts } from '../../../components/ui/facts.tsx';
import { TextField } from '../../../components/ui/form-field.tsx';
import { SearchIcon } from '../../../components/ui/icons.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { listingStatusLabel, listingStatusTone } from '../../../lib/listing-status.ts';
import { actOnListing, getCar, type ListingAction } from '../api/admin-api.ts';
import { useReportRefusal } from '../hooks/console-access.ts';
import { parseTypedId } from '../lib/format.ts';
import { ReasonDialog, type MoveWords } from './reason-dialog.tsx';
import { ConsoleSection, ConsoleStatus, FilterForm, MoveButton, type SectionProps } from './section-parts.tsx';

type Lookup = { status: 'idle' } | { status: 'loading'; id: number } | { status: 'found'; car: CarDetail } | { status: 'error'; id: number; message: string };

const MOVES: Record<ListingAction, MoveWords & { description: string; done: string }> = {
  hide: {
    button: 'Hide Listing',
    title: 'Hide this listing?',
    confirm: 'Hide Listing',
    busy: 'Hiding...',
    danger: true,
    description: 'It leaves the listing and search at once, and its page is not found for anyone but its seller and staff. The seller is told, with your reason.',
    done: 'is hidden',
  },
  restore: {
    button: 'Restore Listing',
    title: 'Restore this listing?',
    confirm: 'Restore Listing',
    busy: 'Restoring...',
    description: 'It goes back to the status it had before it was hidden.',
    done: 'is restored',
  },
};

const carTitle = (car: CarDetail) => `${car.year} ${car.make} ${car.model}`;

/** A listing by its id: hide a fraudulent one from the marketplace, or restore it. */
export function ListingsSection({ titleId }: SectionProps) {
  const fieldId = useId();
  const report = useReportRefusal();
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [lookup, setLookup] = useState<Lookup>({ status: 'idle' });
  const [acting, setActing] = useState<ListingAction | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function find(id: number) {
    setLookup({ status: 'loading', id });
    try {
      setLookup({ status: 'found', car: await getCar(id) });
    } catch (error) {
      report(error);
      const message = error instanceof ApiError && error.status === 404 ? `There is no car #${id}.` : errorMessage(error);
      setLookup({ status: 'error', id, message });
    }
  }

  function submit() {
    const id = parseTypedId(text);
    if (id === null) {
      setFieldError('Enter the car’s number, as in its address: /car/12');
      document.getElementById(fieldId)?.focus();
      return;
    }
    setDone(null);
    void find(id);
  }

  const car = lookup.status === 'found' ? lookup.car : null;

  return (
    <ConsoleSection section="listings" titleId={titleId}>

      <FilterForm label="Find a listing" onApply={submit}>
        <TextField
          id={fieldId}
          label="Car number"
          value={text}
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
          error={fieldError}
          onChange={(value) => {
            setText(value);
            setFieldError(null);
          }}
        />
        <button type="submit" className="btn btn--dark" disabled={lookup.status === 'loading'}>
          <SearchIcon size={18} />
          Find
        </button>
      </FilterForm>

      <ConsoleStatus>{done}</ConsoleStatus>

      {lookup.status === 'loading' && <LoadingStatus label={`Reading car #${lookup.id}...`} />}
      {lookup.status === 'error' && <Alert tone="error">{lookup.message}</Alert>}
      {car && (
        <article className="console-card" aria-labelledby={`${fieldId}-car`} data-testid="listing-found">
          <div className="split-row">
            <h3 id={`${fieldId}-car`} className="console-card__title">
              <Link to={carPath(car.id)} className="dash-link">
                {carTitle(car)}
              </Link>
            </h3>
            <span className={`status-badge status-badge--${listingStatusTone(car.status)}`}>{listingStatusLabel(car.status)}</span>
          </div>
          <Facts className="console-facts">
            <Fact label="Car">#{car.id}</Fact>
            <Fact label="Seller">
              {car.seller.name}
              {car.seller.verified && ' (verified)'}
            </Fact>
            <Fact label="Price">{formatUsd(car.price)}</Fact>
            <Fact label="Location">{car.location}</Fact>
          </Facts>
          <div className="cluster">
            {car.status === 'hidden' ? (
              <MoveButton label={MOVES.restore.button} tone="primary" onClick={() => setActing('restore')} />
            ) : (
              <MoveButton label={MOVES.hide.button} tone="danger" onClick={() => setActing('hide')} />
            )}
          </div>
        </article>
      )}

      {car && acting && (
        <ReasonDialog
          move={MOVES[acting]}
          onClose={() => setActing(null)}
          subtitle={`#${car.id} · ${carTitle(car)}`}
          description={MOVES[acting].description}
          testId="listing-action-dialog"
          onConfirm={async (reason) => {
            await actOnListing(car.id, acting, reason);
            setDone(`${carTitle(car)} (#${car.id}) ${MOVES[acting].done}.`);
            void find(car.id);
          }}
        />
      )}
    </ConsoleSection>
  );
}
