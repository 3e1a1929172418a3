import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { SAVED_SEARCH_LIMIT, SAVED_SEARCH_NAME_MAX, type SavedSearchAlerts } from '@common/market-data.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { NewSavedSearchSchema } from '@common/schemas/discovery.ts';
import { PAGES } from '@common/paths.ts';
import { issuesByField } from '@common/validation.ts';
import { CharCounter, TextField } from '../../../components/ui/form-field.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { detailsByField } from '../../../lib/field-errors.ts';
import { ALERT_CHOICES, createSavedSearch, suggestedSearchName } from '../../market/index.ts';
import { savedQueryOf } from '../lib/filter-form.ts';
import type { ListingQuery } from '../lib/listing-query.ts';

const LIMIT_MESSAGE = `You already keep ${SAVED_SEARCH_LIMIT} saved searches, the most an account can have. Delete one in your dashboard to save this one.`;

/** The dialog's words for a refused save: the limit, the fields' own messages, else the server's. */
function refusal(error: unknown): { name?: string; alerts?: string; other: string | null } {
  if (error instanceof ApiError && error.code === ErrorCode.LIMIT_REACHED) return { other: LIMIT_MESSAGE };
  if (error instanceof ApiError && error.status === 400) {
    const { fields, other } = detailsByField(error.details, ['name', 'alerts'] as const);
    const rest = other.length > 0 ? other.join(' ') : null;
    return { ...fields, other: rest ?? (fields.name || fields.alerts ? null : error.message) };
  }
  return { other: errorMessage(error) };
}

/** The dialog's form: a name (prefilled from the filters) and the alert setting, each explained. */
function SaveSearchForm({ query, onSaved, onBusy }: { query: ListingQuery; onSaved: (name: string) => void; onBusy: (busy: boolean) => void }) {
  const saved = savedQueryOf(query);
  const [name, setName] = useState(() => suggestedSearchName(saved.query));
  const [alerts, setAlerts] = useState<SavedSearchAlerts>('instant');
  const [submitting, setSubmitting] = useState(false);
  const [server, setServer] = useState<{ name?: string; alerts?: string; other: string | null }>({ other: null });
  const nameError = issuesByField(NewSavedSearchSchema, { name, query: {}, alerts }).name ?? server.name ?? null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (nameError || submitting) return;
    setSubmitting(true);
    onBusy(true);
    setServer({ other: null });
    try {
      const created = await createSavedSearch({ name: name.trim(), query: saved.query, alerts });
      onSaved(created.name);
    } catch (error) {
      setServer(refusal(error));
    } finally {
      setSubmitting(false);
      onBusy(false);
    }
  }

  return (
    <form className="modal-dialog__form" onSubmit={(event) => void submit(event)} noValidate>
      <TextField
        id="save-search-name"
        label="Name"
        value={name}
        onChange={(value) => {
          setName(value);
          setServer((current) => ({ ...current, name: undefined }));
        }}
        error={nameError}
        aside={<CharCounter count={name.length} max={SAVED_SEARCH_NAME_MAX} over={name.length > SAVED_SEARCH_NAME_MAX} />}
        data-autofocus
      />
      <fieldset className="field save-search__alerts" aria-describedby={server.alerts ? 'save-search-alerts-error' : undefined}>
        <legend className="field__label">Alerts</legend>
        {ALERT_CHOICES.map((choice) => (
          <label key={choice.value} className="save-search__choice">
            <input type="radio" name="save-search-alerts" value={choice.value} checked={alerts === choice.value} onChange={() => setAlerts(choice.value)} />
            <span className="save-search__choice-label">{choice.label}</span>
            <span className="save-search__choice-text muted">{choice.sentence}</span>
          </label>
        ))}
        {server.alerts && (
          <p id="save-search-alerts-error" className="field__hint field__hint--error">
            {server.alerts}
          </p>
        )}
      </fieldset>
      {saved.dropped && <p className="callout tone-info">{`Saved searches cannot keep the ${saved.dropped} category: this one stands for the other filters.`}</p>}
      {server.other && (
        <p className="callout tone-error" role="alert" data-testid="save-search-error">
          {server.other}
        </p>
      )}
      <div className="modal-dialog__actions">
        <button type="submit" className="btn btn--dark" disabled={submitting}>
          {submitting ? 'Saving...' : 'Save search'}
        </button>
      </div>
    </form>
  );
}

/** "Save this search" (signed-in users): opens the dialog, then says where the search is kept. */
export function SaveSearchButton({ query }: { query: ListingQuery }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [savedName, setSavedName] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="btn btn--outline"
        onClick={() => {
          setSavedName(null);
          setOpen(true);
        }}
      >
        Save this search
      </button>
      {savedName !== null && (
        <p className="filter-panel__saved callout tone-success" role="status" data-testid="search-saved">
          {`Saved "${savedName}". `}
          <Link to={`${PAGES.dashboard}?tab=searches`} className="text-link">
            Manage saved searches
          </Link>
        </p>
      )}
      <ModalDialog
        open={open}
        busy={busy}
        onClose={() => setOpen(false)}
        title="Save this search"
        description="Keep these filters to run again, and choose how to hear about new matching cars."
        testId="save-search-dialog"
      >
        <SaveSearchForm
          query={query}
          onBusy={setBusy}
          onSaved={(name) => {
            setSavedName(name);
            setOpen(false);
          }}
        />
      </ModalDialog>
    </>
  );
}
