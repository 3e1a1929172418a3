import { DOCUMENT_KIND_LABELS, DOSSIER_SECTIONS, DOSSIER_SECTION_LABELS } from '@common/dossier.ts';
import type { DisputeDossier, DossierChange, InspectionItem } from '@common/schemas/dossier.ts';
import { VIN_CHECK_LABELS } from '@common/vin.ts';
import { formatFileSize } from '../../../lib/quantities.ts';

const RESULT_WORDS = { as_described: 'As described', not_as_described: 'Not as described' } as const;

const CHANGE_SECTIONS: Record<DossierChange['section'], string> = {
  ...DOSSIER_SECTION_LABELS,
  vin: 'VIN',
  chassisNumber: 'Chassis number',
  documents: 'Documents',
};
const CHANGE_WORDS: Record<DossierChange['change'], string> = { added: 'Added', removed: 'Removed', changed: 'Changed' };


/**
 * What the escrow team weighs a dispute against: the buyer's checklist item by item beside the
 * dossier as it was frozen into the order (its fingerprint checked again), and what the seller
 * changed in the listing since.
 */
export function DisputeDossierView({ dossier }: { dossier: DisputeDossier }) {
  const { frozen } = dossier;
  const cited = new Set(dossier.disputedItems);
  const groups = DOSSIER_SECTIONS.map((section) => ({ section, items: dossier.checklist.filter((item) => item.section === section) })).filter((g) => g.items.length > 0);
  return (
    <div className="dispute-dossier" data-testid="dispute-dossier">
      <section className="dispute-dossier__checklist" aria-label="The buyer's checklist against the frozen dossier" data-testid="dispute-checklist">
        <h4 className="caps-label">Checklist against the frozen dossier</h4>
        {groups.length === 0 ? (
          <p className="muted">The dossier had no items to check when the order was placed.</p>
        ) : (
          <table className="dispute-checklist">
            <thead>
              <tr>
                <th scope="col">Frozen item</th>
                <th scope="col">Buyer found</th>
              </tr>
            </thead>
            {groups.map((group) => (
              <tbody key={group.section}>
                <tr className="dispute-checklist__group">
                  <th scope="colgroup" colSpan={2}>
                    {DOSSIER_SECTION_LABELS[group.section]}
                  </th>
                </tr>
                {group.items.map((item) => (
                  <ChecklistRow key={item.itemId} item={item} cited={cited.has(item.itemId)} />
                ))}
              </tbody>
            ))}
          </table>
        )}
      </section>

      <section className="dispute-dossier__frozen" aria-label="The frozen dossier" data-testid="dispute-frozen">
        <h4 className="caps-label">Frozen at the order</h4>
        <dl className="dispute-dossier__facts">
          <div>
            <dt>{frozen.vin ? 'VIN' : 'Chassis number'}</dt>
            <dd className="dispute-dossier__vin">
              {frozen.vin ?? frozen.chassisNumber ?? 'None given'}
              {frozen.vin && frozen.vinCheck && <span className="dispute-dossier__check"> · {VIN_CHECK_LABELS[frozen.vinCheck]}</span>}
            </dd>
          </div>
          <div>
            <dt>Fingerprint (SHA-256)</dt>
            <dd>
              <code title={dossier.snapshotHash}>{dossier.snapshotHash.slice(0, 16)}</code>{' '}
              <span className={dossier.hashMatches ? 'dispute-dossier__hash is-ok' : 'dispute-dossier__hash is-broken'} data-testid="dispute-hash">
                {dossier.hashMatches ? 'matches the frozen copy' : 'does not match: the frozen copy was altered'}
              </span>
            </dd>
          </div>
          <div>
            <dt>Documents</dt>
            <dd>
              {frozen.documents.length === 0 ? (
                'None'
              ) : (
                <ul className="dispute-dossier__documents">
                  {frozen.documents.map((document) => (
                    <li key={document.id}>
                      {document.title} <span className="muted">({DOCUMENT_KIND_LABELS[document.kind]}, {formatFileSize(document.bytes)})</span>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        </dl>

        <h4 className="caps-label">Changed in the listing since</h4>
        {dossier.changesSince.length === 0 ? (
          <p className="muted" data-testid="dispute-no-changes">
            Nothing: the listing&apos;s dossier is as it was frozen.
          </p>
        ) : (
          <ul className="dispute-changes" data-testid="dispute-changes">
            {dossier.changesSince.map((change, index) => (
              <li key={`${change.section}-${change.itemId ?? 'x'}-${index}`} className={`dispute-change dispute-change--${change.change}`}>
                <strong>
                  {CHANGE_WORDS[change.change]} · {CHANGE_SECTIONS[change.section]}
                </strong>
                {change.before !== null && <span className="dispute-change__before">Was: {change.before}</span>}
                {change.after !== null && <span className="dispute-change__after">Now: {change.after}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function ChecklistRow({ item, cited }: { item: InspectionItem; cited: boolean }) {
  const tone = item.result === 'not_as_described' ? 'problem' : item.result === 'as_described' ? 'done' : 'closed';
  return (
    <tr className={cited ? 'dispute-checklist__row is-cited' : 'dispute-checklist__row'} data-testid="dispute-checklist-item" data-result={item.result ?? ''}>
      <td>
        {item.text}
        {cited && <span className="dispute-checklist__cited"> · cited in the dispute</span>}
      </td>
      <td>
        <span className={`status-badge status-badge--${tone}`}>{item.result ? RESULT_WORDS[item.result] : 'Not checked'}</span>
        {item.note && <p className="dispute-checklist__note">{item.note}</p>}
      </td>
    </tr>
  );
}
