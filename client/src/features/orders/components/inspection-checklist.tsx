import { useEffect, useId } from 'react';
import { DOSSIER_LIMITS, INSPECTION_RESULTS } from '@common/dossier.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { ClipboardCheckIcon } from '../../../components/ui/icons.tsx';
import type { OrderRole } from '../../../lib/order-progress.ts';
import type { InspectionItem, OrderWithEvents } from '../api/orders-api.ts';
import { bySection, markedCount, noteError, RESULT_LABELS, type Mark } from '../lib/inspection.ts';
import { hasUnsavedMarks, loadInspection, saveMarks, setMark, useInspectionStore } from '../stores/inspection-store.ts';

/** What the checklist says above the items, by who reads it and where the order is. */
function leadText(order: OrderWithEvents, role: OrderRole, editable: boolean): string {
  if (editable) return 'Check the car against each item the seller declared, frozen when you ordered. Mark anything not as described; a dispute cites those items.';
  if (order.status === 'awaiting_payment' || order.status === 'funded' || order.status === 'in_transit') {
    return role === 'buyer'
      ? 'What the seller declared, frozen when you ordered. Once the car arrives you check it item by item.'
      : 'The dossier as it stood when the order was placed. The buyer checks the car against it on arrival.';
  }
  return role === 'buyer' ? 'Your checks of the car against the frozen dossier.' : "The buyer's checks of the car against the dossier frozen into this order.";
}

/**
 * The inspection step as a checklist of the dossier frozen into the order: every known flaw,
 * modification, included item and service record, each marked "As described" or "Not as
 * described" with a note. The buyer marks them while the order is in inspection; otherwise (and
 * for the seller) it reads as it stands.
 */
export function InspectionChecklist({ order, role }: { order: OrderWithEvents; role: OrderRole }) {
  const titleId = useId();
  const entry = useInspectionStore((s) => s.entries[order.id]);
  const editable = role === 'buyer' && order.status === 'inspection';

  // Read again when the order moves (a dispute records what it cites).
  useEffect(() => {
    const controller = new AbortController();
    void loadInspection(order.id, controller.signal);
    return () => controller.abort();
  }, [order.id, order.status]);

  if (!entry || entry.status === 'loading') {
    return (
      <section className="card order-card inspection" aria-labelledby={titleId} aria-busy="true">
        <h2 id={titleId} className="order-card__title">
          Inspection checklist
        </h2>
        <p className="muted">Loading the checklist...</p>
      </section>
    );
  }
  if (entry.status === 'error' || !entry.inspection) {
    return (
      <section className="card order-card inspection" aria-labelledby={titleId}>
        <h2 id={titleId} className="order-card__title">
          Inspection checklist
        </h2>
        <Alert tone="error">
          <p>{entry.error}</p>
        </Alert>
        <button type="button" className="btn btn--outline btn--sm" onClick={() => void loadInspection(order.id)}>
          Try Again
        </button>
      </section>
    );
  }

  const { inspection, marks } = entry;
  const disputed = new Set(inspection.disputedItems);
  const marked = markedCount(inspection, marks);
  const unsaved = hasUnsavedMarks(entry);
  const noteProblems = inspection.items.some((item) => noteError(marks[item.itemId]?.note ?? ''));

  return (
    <section className="card order-card inspection" aria-labelledby={titleId} data-testid="inspection-checklist">
      <div className="split-row inspection__head">
        <h2 id={titleId} className="order-card__title icon-text">
          <ClipboardCheckIcon size={20} /> Inspection checklist
        </h2>
        {inspection.items.length > 0 && (
          <span className="inspection__count" data-testid="inspection-count">
            {marked} of {inspection.items.length} checked
          </span>
        )}
      </div>
      <p className="muted inspection__lead">{leadText(order, role, editable)}</p>
      {inspection.items.length === 0 ? (
        <p className="muted">The listing had no declared flaws, modifications, included items or service records when the order was placed.</p>
      ) : (
        bySection(inspection.items).map((group) => (
          <section key={group.section} className="inspection__section" aria-label={group.label}>
            <h3 className="caps-label inspection__section-title">{group.label}</h3>
            <ol className="inspection__items">
              {group.items.map((item) => (
                <ChecklistItem
                  key={item.itemId}
                  orderId={order.id}
                  item={item}
                  mark={marks[item.itemId] ?? { result: null, note: '' }}
                  editable={editable && !entry.saving}
                  cited={disputed.has(item.itemId)}
                />
              ))}
            </ol>
          </section>
        ))
      )}
      {entry.error && (
        <Alert tone="error" testId="inspection-error">
          <p>{entry.error}</p>
        </Alert>
      )}
      {editable && inspection.items.length > 0 && (
        <div className="inspection__actions">
          <p className="inspection__status" role="status" data-testid="inspection-status">
            {entry.saving ? 'Saving...' : unsaved ? 'You have unsaved marks.' : entry.saved ? 'Checklist saved.' : ''}
          </p>
          <button type="button" className="btn btn--primary" disabled={entry.saving || !unsaved || noteProblems} onClick={() => void saveMarks(order.id)}>
            {entry.saving ? 'Saving...' : 'Save Checklist'}
          </button>
        </div>
      )}
      <p className="inspection__hash">
        Frozen dossier fingerprint (SHA-256): <code data-testid="snapshot-hash">{inspection.snapshotHash.slice(0, 16)}</code>
      </p>
    </section>
  );
}

function ChecklistItem({ orderId, item, mark, editable, cited }: { orderId: number; item: InspectionItem; mark: Mark; editable: boolean; cited: boolean }) {
  const id = useId();
  const problem = noteError(mark.note);
  const result = mark.result;
  return (
    <li className={`inspection-item${result ? ` inspection-item--${result}` : ''}`} data-testid="inspection-item" data-item-id={item.itemId} data-result={result ?? ''}>
      <p className="inspection-item__text" id={`${id}-text`}>
        {item.text}
        {cited && <span className="badge inspection-item__cited">Cited in the dispute</span>}
      </p>
      {editable ? (
        <>
          <fieldset className="inspection-item__choice" aria-labelledby={`${id}-text`}>
            {INSPECTION_RESULTS.map((value) => (
              <label key={value} className={`inspection-choice inspection-choice--${value}`}>
                <input type="radio" name={`${id}-result`} value={value} checked={result === value} onChange={() => setMark(orderId, item.itemId, { result: value })} />
                <span>{RESULT_LABELS[value]}</span>
              </label>
            ))}
          </fieldset>
          {result && (
            <div className="field inspection-item__note">
              <label htmlFor={`${id}-note`} className="field__label">
                Note {result === 'as_described' && <span className="field__optional">(optional)</span>}
              </label>
              <textarea
                id={`${id}-note`}
                className="input input--textarea inspection-item__note-input"
                rows={result === 'not_as_described' ? 2 : 1}
                maxLength={DOSSIER_LIMITS.inspectionNote + 50}
                value={mark.note}
                placeholder={result === 'not_as_described' ? 'What you found instead' : 'Anything worth noting'}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-note-error` : undefined}
                onChange={(event) => setMark(orderId, item.itemId, { note: event.target.value })}
              />
              {problem && (
                <p id={`${id}-note-error`} className="field__hint field__hint--error">
                  {problem}
                </p>
              )}
            </div>
          )}
        </>
      ) : (
        <p className="inspection-item__result" data-testid="inspection-result">
          <span className={`status-badge status-badge--${result === 'not_as_described' ? 'problem' : result === 'as_described' ? 'done' : 'closed'}`}>
            {result ? RESULT_LABELS[result] : 'Not checked'}
          </span>
          {mark.note && <span className="inspection-item__note-text">{mark.note}</span>}
        </p>
      )}
    </li>
  );
}
