/**
 * The guard for contact details and payment outside escrow (contract v4, "The discussion").
 * A message that holds a way to reach its author off the site, or a way to pay outside escrow,
 * is held for an operator; ordinary car talk, however full of numbers, passes.
 */

/** Why a message was held: what kind of off-platform contact or payment it holds. */
export type GuardReason = 'phone' | 'email' | 'link' | 'messaging_app' | 'payment';

export const GUARD_REASONS: readonly GuardReason[] = ['phone', 'email', 'link', 'messaging_app', 'payment'];

/** One thing the guard found, normalized (digits as digits, letters unmasked) for the operator's queue. */
export interface GuardFinding {
  reason: GuardReason;
  fragment: string;
}

export type GuardVerdict = { held: false } | { held: true; reasons: GuardReason[]; findings: GuardFinding[] };

export interface GuardOptions {
  /** The app's own hosts (`luxemotors.example`, `localhost:3000`): links to them are allowed. */
  ownHosts: readonly string[];
}
