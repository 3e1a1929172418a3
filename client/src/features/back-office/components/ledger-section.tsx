import { useId, useState } from 'react';
import type { LedgerKind } from '@common/schemas/admin.ts';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { TextField } from '../../../components/ui/form-field.tsx';
import { CheckIcon, WarningIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { useSubmission } from '../../../lib/use-submission.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { downloadLedgerCsv, getLedger, type LedgerRange, type LedgerTotals } from '../api/admin-api.ts';
import { useConsoleResource, useReportRefusal } from '../hooks/console-access.ts';
import { dayBoundary, ledgerBalances } from '../lib/format.ts';
import { ConsoleEmpty, ConsoleSection, FilterForm, type SectionProps } from './section-parts.tsx';
import { TableFrame, type Column } from './table-frame.tsx';
import './ledger-section.css';

const KIND_LABELS: Record<LedgerKind, string> = { charge: 'Charge', payout: 'Payout', refund: 'Refund' };
/** Each kind's tone (see Tones in global.css): money in, money out to the seller, money back. */
const KIND_TONES: Record<LedgerKind, string> = { charge: 'info', payout: 'success', refund: 'neutral' };
const COLUMNS: Column[] = ['Date', 'Order', 'Kind', { label: 'Amount', num: true }, 'Status', 'Reference'];
const TOTALS: { key: keyof LedgerTotals; label: string }[] = [
  { key: 'charged', label: 'Charged' },
  { key: 'paidOut', label: 'Paid out' },
  { key: 'refunded', label: 'Refunded' },
  { key: 'held', label: 'Held' },
];

interface Days {
  from: string;
  to: string;
}

const rangeOf = (days: Days): LedgerRange => {
  const range: LedgerRange = {};
  const from = dayBoundary(days.from, 'start');
  const to = dayBoundary(days.to, 'end');
  if (from) range.from = from;
  if (to) range.to = to;
  return range;
};

/** Every movement of money through escrow in a date range, its totals (which must balance) and a CSV of it. */
export function LedgerSection({ titleId }: SectionProps) {
  const idBase = useId();
  const [days, setDays] = useState<Days>({ from: '', to: '' });
  const [applied, setApplied] = useState<Days>({ from: '', to: '' });
  const [rangeError, setRangeError] = useState<string | null>(null);
  const range = rangeOf(applied);
  const { resource, retry } = useConsoleResource(`admin:ledger:${range.from ?? ''}:${range.to ?? ''}`, (signal) => getLedger(range, signal));
  const saving = useSubmission();
  const report = useReportRefusal();

  function apply() {
    if (days.from && days.to && days.from > days.to) {
      setRangeError('The start date must be on or before the end date');
      document.getElementById(`${idBase}-to`)?.focus();
      return;
    }
    setRangeError(null);
    if (days.from === applied.from && days.to === applied.to) retry();
    else setApplied(days);
  }

  async function downloadCsv() {
    await saving.submit(async () => {
      try {
        const { blob, filename } = await downloadLedgerCsv(range);
        const url = URL.createObjectURL(blob);
        const link = document.createElement('a');
        link.href = url;
        link.download = filename ?? `ledger${applied.from ? `-from-${applied.from}` : ''}${applied.to ? `-to-${applied.to}` : ''}.csv`;
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1_000);
      } catch (error) {
        report(error);
        throw error;
      }
    });
  }

  return (
    <ConsoleSection section="ledger" titleId={titleId}>

      <FilterForm label="Date range" onApply={apply}>
        <TextField id={`${idBase}-from`} label="From" type="date" value={days.from} max={days.to || undefined} onChange={(from) => setDays((d) => ({ ...d, from }))} />
        <TextField
          id={`${idBase}-to`}
          label="To"
          type="date"
          value={days.to}
          min={days.from || undefined}
          error={rangeError}
          onChange={(to) => {
            setDays((d) => ({ ...d, to }));
            setRangeError(null);
          }}
        />
        <div className="cluster">
          <button type="submit" className="btn btn--dark">
            Show
          </button>
          <button type="button" className="btn btn--outline" onClick={() => void downloadCsv()} disabled={saving.submitting} data-testid="ledger-csv">
            {saving.submitting ? 'Preparing...' : 'Download CSV'}
          </button>
        </div>
      </FilterForm>
      {saving.error && <Alert tone="error">{saving.error}</Alert>}

      <Loaded resource={resource} retry={retry} label="Loading the ledger...">
        {({ entries, totals }) => (
          <>
            <section className="ledger-totals" aria-label="Totals" data-testid="ledger-totals">
              <dl className="ledger-totals__figures">
                {TOTALS.map(({ key, label }) => (
                  <div key={key}>
                    <dt className="stat-label">{label}</dt>
                    <dd className="stat-value">{formatUsd(totals[key])}</dd>
                  </div>
                ))}
              </dl>
              {ledgerBalances(totals) ? (
                <p className="icon-text ledger-totals__check tone-success">
                  <CheckIcon size={16} /> Balanced: charged = paid out + refunded + held
                </p>
              ) : (
                <p className="icon-text ledger-totals__check tone-error">
                  <WarningIcon size={16} /> Out of balance by {formatUsd(totals.charged - totals.paidOut - totals.refunded - totals.held)}
                </p>
              )}
            </section>

            {entries.length === 0 ? (
              <ConsoleEmpty title="No entries">No money moved{applied.from || applied.to ? ' in these dates' : ' yet'}.</ConsoleEmpty>
            ) : (
              <TableFrame caption={`Ledger entries, ${entries.length.toLocaleString('en-US')} in all, oldest first`} columns={COLUMNS} testId="ledger-table">
                {entries.map((entry) => (
                  <tr key={`${entry.kind}-${entry.id}`}>
                    <td className="nowrap">
                      <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                    </td>
                    <td>#{entry.orderId}</td>
                    <td>
                      <span className={`status-badge tone-${KIND_TONES[entry.kind] ?? 'neutral'}`}>{KIND_LABELS[entry.kind] ?? entry.kind}</span>
                    </td>
                    <td className="num">{formatUsd(entry.amount)}</td>
                    <td>{entry.status === 'settled' ? 'Settled' : 'Pending'}</td>
                    <td>{entry.reference ? <code>{entry.reference}</code> : <span className="muted">—</span>}</td>
                  </tr>
                ))}
              </TableFrame>
            )}
          </>
        )}
      </Loaded>
    </ConsoleSection>
  );
}
