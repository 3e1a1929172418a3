import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SAVED_SEARCH_LIMIT, type SavedSearchAlerts } from '@common/market-data.ts';
import type { SavedSearch } from '@common/schemas/discovery.ts';
import { SelectOptions } from '../../../components/ui/form-field.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { useSubmission } from '../../../lib/use-submission.ts';
import { deleteSavedSearch, getSavedSearches, setSearchAlerts } from '../api/market-api.ts';
import { ALERT_CHOICES } from '../lib/alerts.ts';
import { listingPathFor, searchInWords } from '../lib/criteria.ts';
import './market.css';

const ALERT_OPTIONS = ALERT_CHOICES.map(({ value, label }) => ({ value, label }));

/** One saved search: its name, its criteria in words, its alert setting (changed in place), Run and Delete. */
function SearchRow({ search, onChanged, onDelete }: { search: SavedSearch; onChanged: (next: SavedSearch) => void; onDelete: () => void }) {
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const selectId = `saved-search-${search.id}-alerts`;
  const words = searchInWords(search.query);

  async function changeAlerts(alerts: SavedSearchAlerts) {
    setSaving(true);
    setProblem(null);
    try {
      onChanged(await setSearchAlerts(search.id, alerts));
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <li className="saved-search" data-testid="saved-search">
      <div className="stack saved-search__main">
        <p className="saved-search__name">{search.name}</p>
        {words !== search.name && <p className="muted saved-search__words">{words}</p>}
        {problem && (
          <p className="field__hint field__hint--error" role="alert">
            {problem}
          </p>
        )}
      </div>
      <div className="cluster saved-search__actions">
        <label htmlFor={selectId} className="saved-search__alerts">
          <span>Alerts</span>
          <select
            id={selectId}
            className="input select"
            value={search.alerts}
            disabled={saving}
            onChange={(event) => {
              const next = ALERT_CHOICES.find((c) => c.value === event.target.value);
              if (next) void changeAlerts(next.value);
            }}
          >
            <SelectOptions options={ALERT_OPTIONS} />
          </select>
        </label>
        <Link to={listingPathFor(search.query)} className="btn btn--dark btn--sm" aria-label={`Run ${search.name}`}>
          Run
        </Link>
        <button type="button" className="btn btn--outline btn--sm" onClick={onDelete} aria-label={`Delete ${search.name}`}>
          Delete
        </button>
      </div>
    </li>
  );
}

/** The dashboard's "Saved searches" tab: the viewer's searches, newest first as the server lists them. */
export function SavedSearchesPanel() {
  const { resource, retry, mutate } = useResource('saved-searches', getSavedSearches, 'Could not load your saved searches');
  const [deleting, setDeleting] = useState<SavedSearch | null>(null);
  const removal = useSubmission();

  function confirmDelete() {
    const target = deleting;
    if (!target) return;
    void removal.submit(async () => {
      await deleteSavedSearch(target.id);
      mutate((list) => list.filter((s) => s.id !== target.id));
      setDeleting(null);
    });
  }

  return (
    <>
      <Loaded resource={resource} retry={retry} label="Loading your saved searches...">
        {(searches) =>
          searches.length === 0 ? (
            <div className="empty-state">
              <p className="empty-state__title">No saved searches yet</p>
              <p className="muted">Set filters on the listing and choose “Save this search” to hear about matching cars.</p>
              <Link to="/" className="btn btn--dark">
                Set filters
              </Link>
            </div>
          ) : (
            <div className="stack saved-searches">
              <p className="muted">{`${searches.length} of ${SAVED_SEARCH_LIMIT} saved searches`}</p>
              <ul className="divided-list saved-searches__list" aria-label="Saved searches">
                {searches.map((search) => (
                  <SearchRow
                    key={search.id}
                    search={search}
                    onChanged={(next) => mutate((list) => list.map((s) => (s.id === next.id ? next : s)))}
                    onDelete={() => {
                      removal.setError(null);
                      setDeleting(search);
                    }}
                  />
                ))}
              </ul>
            </div>
          )
        }
      </Loaded>
      <ModalDialog
        open={deleting !== null}
        busy={removal.submitting}
        onClose={() => setDeleting(null)}
        title="Delete this saved search?"
        subtitle={deleting?.name}
        description="Its alerts stop and it leaves this list. The cars it found stay on the listing."
        testId="delete-search-dialog"
      >
        {removal.error && (
          <p className="field__hint field__hint--error" role="alert">
            {removal.error}
          </p>
        )}
        <div className="modal-dialog__actions">
          <button type="button" className="btn btn--outline" onClick={() => setDeleting(null)} disabled={removal.submitting}>
            Keep it
          </button>
          <button type="button" className="btn btn--danger" onClick={confirmDelete} disabled={removal.submitting} data-autofocus>
            {removal.submitting ? 'Deleting...' : 'Delete search'}
          </button>
        </div>
      </ModalDialog>
    </>
  );
}
