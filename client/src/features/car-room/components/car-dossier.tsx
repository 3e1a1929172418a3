import { useId, type ReactNode } from 'react';
import { DOCUMENT_KIND_LABELS, DOSSIER_SECTION_LABELS } from '@common/dossier.ts';
import type { Dossier, DossierDocument, Item } from '@common/schemas/dossier.ts';
import { VIN_CHECK_LABELS } from '@common/vin.ts';
import { formatUsd } from '@common/pricing.ts';
import { CheckIcon, ClipboardCheckIcon, FileTextIcon, InfoIcon } from '../../../components/ui/icons.tsx';
import { formatFileSize, formatMileage } from '../../../lib/quantities.ts';
import './car-dossier.css';

const TYPE_NAMES: Record<DossierDocument['contentType'], string> = { 'application/pdf': 'PDF', 'image/jpeg': 'JPEG', 'image/png': 'PNG' };

/** "May 10, 2024": a calendar date as written, the same on the server and in every time zone. */
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
export function formatServiceDate(date: string): string {
  const time = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(time) ? date : dateFormat.format(time);
}

/** Whether the seller has put anything in the dossier. */
export function hasDossier(dossier: Dossier): boolean {
  return Boolean(
    dossier.vin ||
      dossier.chassisNumber ||
      dossier.knownFlaws.length ||
      dossier.modifications.length ||
      dossier.itemsIncluded.length ||
      dossier.serviceRecords.length ||
      dossier.documents.length,
  );
}

/**
 * The car's dossier on its page: how it is identified (the VIN and its check, or a chassis
 * number), known flaws, modifications, the service history as a timeline, the documents with an
 * open link, and what is included. Drawn on the server like the rest of the page.
 */
export function CarDossier({ dossier }: { dossier: Dossier }) {
  const titleId = useId();
  if (!hasDossier(dossier)) {
    return (
      <section className="room-card car-dossier" aria-labelledby={titleId} data-testid="car-dossier">
        <h2 id={titleId} className="room-card__title">
          Dossier
        </h2>
        <p className="muted">The seller has not added a dossier yet: ask in the Live Discussion for the VIN, known flaws and service records.</p>
      </section>
    );
  }
  const documents = new Map(dossier.documents.map((d) => [d.id, d]));
  return (
    <section className="room-card car-dossier" aria-labelledby={titleId} data-testid="car-dossier">
      <div className="split-row room-card__heading">
        <h2 id={titleId} className="room-card__title">
          <ClipboardCheckIcon size={20} /> Dossier
        </h2>
        <Identity dossier={dossier} />
      </div>
      <p className="muted car-dossier__lead">What the seller declares. An escrow order freezes it, and you check each item when the car arrives.</p>

      <DossierSection title={DOSSIER_SECTION_LABELS.knownFlaws} testId="dossier-known-flaws" empty="No known flaws declared.">
        {dossier.knownFlaws.length > 0 && <ItemList items={dossier.knownFlaws} tone="flaw" />}
      </DossierSection>
      <DossierSection title={DOSSIER_SECTION_LABELS.modifications} testId="dossier-modifications" empty="No modifications declared: factory specification.">
        {dossier.modifications.length > 0 && <ItemList items={dossier.modifications} tone="plain" />}
      </DossierSection>
      <DossierSection title={DOSSIER_SECTION_LABELS.serviceRecords} testId="dossier-service-history" empty="No service records listed.">
        {dossier.serviceRecords.length > 0 && (
          <ol className="service-timeline">
            {dossier.serviceRecords.map((record) => {
              const invoice = record.documentId === undefined ? undefined : documents.get(record.documentId);
              return (
                <li key={record.id} className="service-timeline__entry" data-testid="service-record">
                  <p className="service-timeline__when">
                    <time dateTime={record.date}>{formatServiceDate(record.date)}</time>
                    <span className="service-timeline__mileage"> · {formatMileage(record.mileage)}</span>
                  </p>
                  <p className="service-timeline__shop">{record.shop}</p>
                  <p className="service-timeline__work">{record.work}</p>
                  {(record.cost !== undefined || invoice) && (
                    <p className="service-timeline__meta">
                      {record.cost !== undefined && <span>{formatUsd(record.cost)}</span>}
                      {invoice && (
                        <a className="text-link" href={invoice.url} target="_blank" rel="noopener noreferrer">
                          Invoice<span className="sr-only">: {invoice.title}</span> ({TYPE_NAMES[invoice.contentType]}, {formatFileSize(invoice.bytes)})
                        </a>
                      )}
                    </p>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </DossierSection>
      <DossierSection title="Documents" testId="dossier-documents" empty="No documents uploaded.">
        {dossier.documents.length > 0 && (
          <ul className="dossier-documents">
            {dossier.documents.map((document) => (
              <li key={document.id} className="dossier-document" data-testid="dossier-document">
                <FileTextIcon size={20} className="dossier-document__icon" />
                <div className="dossier-document__body">
                  <a className="text-link dossier-document__title" href={document.url} target="_blank" rel="noopener noreferrer">
                    {document.title}
                  </a>
                  <p className="dossier-document__meta">
                    {DOCUMENT_KIND_LABELS[document.kind]} · {TYPE_NAMES[document.contentType]} · {formatFileSize(document.bytes)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </DossierSection>
      <DossierSection title={DOSSIER_SECTION_LABELS.itemsIncluded} testId="dossier-included" empty="Nothing listed beyond the car.">
        {dossier.itemsIncluded.length > 0 && <ItemList items={dossier.itemsIncluded} tone="included" />}
      </DossierSection>
    </section>
  );
}

function Identity({ dossier }: { dossier: Dossier }) {
  if (dossier.vin) {
    return (
      <p className="car-dossier__identity" data-testid="dossier-vin">
        <span className="car-dossier__identity-label">VIN</span> <span className="car-dossier__vin">{dossier.vin}</span>
        {dossier.vinCheck && (
          <span className={`car-dossier__check car-dossier__check--${dossier.vinCheck}`} data-testid="dossier-vin-check" data-check={dossier.vinCheck}>
            {dossier.vinCheck === 'valid' ? <CheckIcon size={14} /> : <InfoIcon size={14} />}
            {VIN_CHECK_LABELS[dossier.vinCheck]}
          </span>
        )}
      </p>
    );
  }
  if (dossier.chassisNumber) {
    return (
      <p className="car-dossier__identity" data-testid="dossier-chassis">
        <span className="car-dossier__identity-label">Chassis</span> <span className="car-dossier__vin">{dossier.chassisNumber}</span>
      </p>
    );
  }
  return null;
}

function DossierSection({ title, testId, empty, children }: { title: string; testId: string; empty: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="car-dossier__section" aria-labelledby={id} data-testid={testId}>
      <h3 id={id} className="car-dossier__heading">
        {title}
      </h3>
      {children || <p className="muted car-dossier__empty">{empty}</p>}
    </section>
  );
}

function ItemList({ items, tone }: { items: readonly Item[]; tone: 'flaw' | 'plain' | 'included' }) {
  return (
    <ul className={`dossier-items dossier-items--${tone}`}>
      {items.map((item) => (
        <li key={item.id}>{item.text}</li>
      ))}
    </ul>
  );
}
