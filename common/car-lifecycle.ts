/**
 * A listing's state: `pending` while an escrow order holds the buyer's money, `ended` once an
 * auction closed unsold. Only `active` cars are listed; a `draft` is seen by its seller only.
 */
export const CAR_STATUSES = ['draft', 'active', 'pending', 'sold', 'ended', 'withdrawn', 'hidden'] as const;
export type CarStatus = (typeof CAR_STATUSES)[number];
