import { MAX_BID_AMOUNT, MIN_BID_AMOUNT } from '@common/bid-rules.ts';

/**
 * "$125,000", "125000", " 125 000 " → 125000. Null for anything that is not a whole number of
 * dollars within the contract's range (decimals included: money is whole dollars).
 */
export function parseBidAmount(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, '');
  if (!/^\d+$/.test(cleaned)) return null;
  const amount = Number(cleaned);
  if (!Number.isSafeInteger(amount) || amount < MIN_BID_AMOUNT || amount > MAX_BID_AMOUNT) return null;
  return amount;
}

/** 125000 → "125,000" (the bid field shows the amount without the currency sign, which sits beside it). */
export function formatAmountInput(amount: number): string {
  return amount.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

/** Shared with the other writes that take an Idempotency-Key. */
export { newIdempotencyKey } from '../../../lib/idempotency-key.ts';

/**
 * Whether the bid field shows the live minimum rather than what the user typed: when they have
 * not typed, or when a newer bid raised the minimum above their (unfocused) amount.
 */
export function followsMinimum(
  draft: { value: string; minimumAtEdit: number | null } | null,
  minimum: number | null,
  focused: boolean,
): boolean {
  if (draft === null) return true;
  if (focused || minimum === null || draft.minimumAtEdit === minimum) return false;
  const typed = parseBidAmount(draft.value);
  return typed === null || typed < minimum;
}
