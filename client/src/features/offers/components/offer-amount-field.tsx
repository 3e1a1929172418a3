import { useId } from 'react';
import { MoneyField } from '../../../components/ui/money-field.tsx';

/** The amount of an offer or a counter, typed in whole dollars; the dialog starts on it. */
export function OfferAmountField(field: { label: string; value: string; onChange: (value: string) => void; error: string | null; hint?: string; busy: boolean; testId: string }) {
  const id = useId();
  const { busy, testId, ...shown } = field;
  return <MoneyField id={id} {...shown} disabled={busy} errorTestId={`${testId}-error`} data-testid={testId} data-autofocus />;
}
