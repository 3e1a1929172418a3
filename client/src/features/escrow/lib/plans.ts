import { ESCROW_PLAN_IDS, ESCROW_PLANS, type EscrowPlan, type EscrowPlanId } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';

/** The plans in order, cheapest first. */
export const PLAN_LIST: readonly EscrowPlan[] = ESCROW_PLAN_IDS.map((id) => ESCROW_PLANS[id]);

/** 10000 → "$10K", 1500000 → "$1.5M", 750 → "$750". */
export function compactUsd(amount: number): string {
  if (amount >= 1_000_000) return `$${trim(amount / 1_000_000)}M`;
  if (amount >= 1_000) return `$${trim(amount / 1_000)}K`;
  return formatUsd(amount);
}

const trim = (n: number) => String(Math.round(n * 10) / 10);

/** Spec §9 wording: the entry plan offers a money-back period, the others a guarantee. */
export function guaranteeLabel(plan: EscrowPlan): string {
  return `${plan.guaranteeDays}-day ${plan.id === 'basic' ? 'money-back' : 'guarantee'}`;
}

export function insuranceLabel(plan: EscrowPlan): string {
  return plan.insurance ? `Insurance up to ${compactUsd(plan.insurance)}` : 'No transit insurance';
}

/** "up to $500,000". */
export function coverageLabel(plan: EscrowPlan): string {
  return `up to ${formatUsd(plan.maxValue)}`;
}

export function planCovers(plan: EscrowPlan, price: number): boolean {
  return price <= plan.maxValue;
}

/** The preferred plan when it covers the price, else the cheapest that does, else null. */
export function planFor(price: number, preferred: EscrowPlanId): EscrowPlanId | null {
  if (planCovers(ESCROW_PLANS[preferred], price)) return preferred;
  return PLAN_LIST.find((plan) => planCovers(plan, price))?.id ?? null;
}

export interface OrderTotals {
  price: number;
  fee: number;
  total: number;
}

export function orderTotals(price: number, planId: EscrowPlanId): OrderTotals {
  const fee = ESCROW_PLANS[planId].price;
  return { price, fee, total: price + fee };
}
