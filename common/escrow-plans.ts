/** The escrow plans: prices, limits and guarantees shown on the Escrow page and enforced on orders. */
export const ESCROW_PLAN_IDS = ['basic', 'premium', 'platinum'] as const;
export type EscrowPlanId = (typeof ESCROW_PLAN_IDS)[number];

export interface EscrowPlan {
  id: EscrowPlanId;
  name: string;
  /** Escrow fee in whole dollars. */
  price: number;
  /** Largest purchase the plan covers, in whole dollars. */
  maxValue: number;
  guaranteeDays: number;
  /** Transit insurance cover in dollars, or null when the plan has none. */
  insurance: number | null;
  popular: boolean;
  features: string[];
}

export const DEFAULT_ESCROW_PLAN: EscrowPlanId = 'premium';

export const ESCROW_PLANS: Record<EscrowPlanId, EscrowPlan> = {
  basic: {
    id: 'basic',
    name: 'Basic Protection',
    price: 199,
    maxValue: 100_000,
    guaranteeDays: 3,
    insurance: null,
    popular: false,
    features: ['Funds held by a licensed escrow agent', 'Vehicle history report', '3-day money-back guarantee', 'Email support'],
  },
  premium: {
    id: 'premium',
    name: 'Premium Shield',
    price: 399,
    maxValue: 500_000,
    guaranteeDays: 7,
    insurance: 10_000,
    popular: true,
    features: ['Everything in Basic Protection', 'Independent pre-purchase inspection', '7-day money-back guarantee', 'Transit insurance up to $10K', 'Priority phone support'],
  },
  platinum: {
    id: 'platinum',
    name: 'Platinum Elite',
    price: 799,
    maxValue: 1_000_000,
    guaranteeDays: 14,
    insurance: 25_000,
    popular: false,
    features: ['Everything in Premium Shield', 'Enclosed white-glove transport coordination', '14-day money-back guarantee', 'Transit insurance up to $25K', 'Dedicated escrow specialist'],
  },
};

export function isEscrowPlanId(value: string): value is EscrowPlanId {
  return (ESCROW_PLAN_IDS as readonly string[]).includes(value);
}

/** The cheapest plan that covers `amount`; null above every plan's limit. */
export function smallestPlanFor(amount: number): EscrowPlanId | null {
  return ESCROW_PLAN_IDS.find((id) => amount <= ESCROW_PLANS[id].maxValue) ?? null;
}

/** What the buyer pays into escrow for an order: the price and the plan's fee. */
export function amountCharged(order: { amount: number; escrowFee: number }): number {
  return order.amount + order.escrowFee;
}
