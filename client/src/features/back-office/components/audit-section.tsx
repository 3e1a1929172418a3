import { useId, useState } from 'react';
import { AUDIT_ACTIONS, AUDIT_PAGE_DEFAULT, AUDIT_TARGET_TYPES, type AuditAction, type AuditTargetType } from '@common/back-office.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { getAudit, type AuditEntry, type AuditFilters } from '../api/admin-api.ts';
import { useConsoleResource, useReportRefusal } from '../hooks/console-access.ts';
import { AUDIT_ACTION_LABELS, TARGET_LABELS, actorLabel, compactJson, parseTypedId, shortHash } from '../lib/format.ts';
import { ConsoleEmpty, ConsoleSection, FilterForm, type SectionProps } from './section-parts.tsx';
import './audit-section.css';

interface FilterValues {
  actor: string;
  action: AuditAction | '';
  targetType: AuditTargetType | '';
  targetId: string;
}

const NO_FILTERS: FilterValues = { actor: '', action: '', targetType: '', targetId: '' };
const ACTION_OPTIONS = AUDIT_ACTIONS.map((action) => ({ value: action, label: `${AUDIT_ACTION_LABELS[action]} (${action})` }));
const TARGET_OPTIONS = AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: TARGET_LABELS[type] }));

function filtersOf(values: FilterValues): AuditFilters {
  const filters: AuditFilters = {};
  if (values.actor.trim()) filters.actor = values.actor.trim();
  if (values.action) filters.action = values.action;
  if (values.targetType) filters.targetType = values.targetType;
  const id = parseTypedId(values.targetId);
  if (id !== null) filters.targetId = id;
  return filters;
}

/** Older pages loaded after the first, for the filters (and refresh) they were loaded under. */
interface Older {
  key: string;
  entries: AuditEntry[];
  exhausted: boolean;
}

/**
 * The audit log, newest first: who did what to which record, why, and what it was before and
 * after; each entry's hash chains it to the one before. Filtered by actor, action and target,
 * and read back page by page ("Older").
 */
export function AuditSection({ titleId }: SectionProps) {
  const idBase = useId();
  const report = useReportRefusal();
  const [values, setValues] = useState<FilterValues>(NO_FILTERS);
  const [idError, setIdError] = useState<string | null>(null);
  const [applied, setApplied] = useState<AuditFilters>({});
  const [generation, setGeneration] = useState(0);
  const key = `${JSON.stringify(applied)}#${generation}`;
  const { resource, retry } = useConsoleResource(`admin:audit:${key}`, (signal) => getAudit(applied, { limit: AUDIT_PAGE_DEFAULT }, signal));
  const [older, setOlder] = useState<Older | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const olderHere = older?.key === key ? older : null;

  const set = <K extends keyof FilterValues>(name: K, value: FilterValues[K]) => setValues((v) => ({ ...v, [name]: value }));

  function apply() {
    if (values.targetId.trim() && parseTypedId(values.targetId) === null) {
      setIdError('A target id is a whole number, like 12');
      document.getElementById(`${idBase}-target-id`)?.focus();
      return;
    }
    setIdError(null);
    setOlderError(null);
    setApplied(filtersOf(values));
    setGeneration((g) => g + 1);
  }

  function clear() {
    setValues(NO_FILTERS);
    setIdError(null);
    setOlderError(null);
    setApplied({});
    setGeneration((g) => g + 1);
  }

  async function loadOlder(shown: AuditEntry[]) {
    const last = shown[shown.length - 1];
    if (!last || loadingOlder) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await getAudit(applied, { before: last.id, limit: AUDIT_PAGE_DEFAULT });
      setOlder({ key, entries: [...(olderHere?.entries ?? []), ...page], exhausted: page.length < AUDIT_PAGE_DEFAULT });
    } catch (error) {
      report(error);
      setOlderError(errorMessage(error));
    } finally {
      setLoadingOlder(false);
    }
  }

  const filtered = Object.keys(applied).length > 0;

  return (
    <ConsoleSection section="audit" titleId={titleId} onRefresh={() => setGeneration((g) => g + 1)}>

      <FilterForm label="Filter the audit log" onApply={apply} className="audit-filters">
        <TextField id={`${idBase}-actor`} label="Actor" placeholder="Email or cli" value={values.actor} onChange={(v) => set('actor', v)} autoComplete="off" spellCheck={false} maxLength={254} />
        <SelectField id={`${idBase}-action`} label="Action" value={values.action} options={ACTION_OPTIONS} placeholder="Any action" onChange={(v) => set('action', v as AuditAction | '')} />
        <SelectField id={`${idBase}-target-type`} label="Target" value={values.targetType} options={TARGET_OPTIONS} placeholder="Any target" onChange={(v) => set('targetType', v as AuditTargetType | '')} />
        <TextField
          id={`${idBase}-target-id`}
          label="Target id"
          value={values.targetId}
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
          error={idError}
          onChange={(v) => {
            set('targetId', v);
            setIdError(null);
          }}
        />
        <div className="cluster">
          <button type="submit" className="btn btn--dark">
            Apply
          </button>
          {filtered && (
            <button type="button" className="btn btn--outline" onClick={clear}>
              Clear
            </button>
          )}
        </div>
      </FilterForm>

      <Loaded resource={resource} retry={retry} label="Loading the audit log...">
        {(firstPage) => {
          const entries = [...firstPage, ...(olderHere?.entries ?? [])];
          const more = firstPage.length === AUDIT_PAGE_DEFAULT && !olderHere?.exhausted;
          if (entries.length === 0) return <ConsoleEmpty title="No entries">{filtered ? 'Nothing matches these filters.' : 'Nothing has been done in the console yet.'}</ConsoleEmpty>;
          return (
            <>
              <p className="audit-count">
                {entries.length.toLocaleString('en-US')} {entries.length === 1 ? 'entry' : 'entries'}
                {more ? ' shown, newest first' : ', newest first'}
              </p>
              <ol className="tile-grid console-cards audit-list" aria-label="Audit entries, newest first" data-testid="audit-list">
                {entries.map((entry) => (
                  <AuditItem key={entry.id} entry={entry} />
                ))}
              </ol>
              {olderError && <Alert tone="error">{olderError}</Alert>}
              {more && (
                <button type="button" className="btn btn--outline audit-older" onClick={() => void loadOlder(entries)} disabled={loadingOlder}>
                  {loadingOlder ? 'Loading...' : 'Older'}
                </button>
              )}
            </>
          );
        }}
      </Loaded>
    </ConsoleSection>
  );
}

function AuditItem({ entry }: { entry: AuditEntry }) {
  const fullBefore = compactJson(entry.before, Infinity);
  const fullAfter = compactJson(entry.after, Infinity);
  return (
    <li className="console-card audit-entry" data-testid="audit-entry" data-action={entry.action} data-entry-id={entry.id}>
      <div className="split-row audit-entry__head">
        <p className="audit-entry__what">
          <strong>{AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</strong> · {TARGET_LABELS[entry.targetType] ?? entry.targetType} #{entry.targetId}
        </p>
        <time className="audit-entry__when" dateTime={entry.at}>
          {formatDateTime(entry.at)}
        </time>
      </div>
      <dl className="audit-entry__facts">
        <div>
          <dt>By</dt>
          <dd data-testid="audit-actor">{entry.actor === 'cli' ? <span className="tag">cli</span> : actorLabel(entry.actor)}</dd>
        </div>
        <div>
          <dt>Reason</dt>
          <dd data-testid="audit-reason" className="audit-entry__reason">
            {entry.reason}
          </dd>
        </div>
        <div>
          <dt>Change</dt>
          <dd className="audit-entry__change">
            <code title={fullBefore}>{compactJson(entry.before)}</code>
            <span aria-hidden="true"> → </span>
            <span className="sr-only"> became </span>
            <code title={fullAfter}>{compactJson(entry.after)}</code>
          </dd>
        </div>
        <div>
          <dt>Entry</dt>
          <dd className="audit-entry__ids">
            #{entry.id} · <code>{entry.action}</code> · hash{' '}
            <code title={entry.hash} className="audit-entry__hash">
              {shortHash(entry.hash)}
            </code>
          </dd>
        </div>
      </dl>
    </li>
  );
}
