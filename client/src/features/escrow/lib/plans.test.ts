import { describe, expect, it } from 'vitest';
import { ESCROW_PLANS } from '@common/escrow-plans.ts';
import { compactUsd, coverageLabel, guaranteeLabel, insuranceLabel, orderTotals, PLAN_LIST, planFor } from './plans.ts';

describe('plan labels', () => {
  it('word the plans as spec §9 does', () => {
    expect(PLAN_LIST.map((p) => p.name)).toEqual(['Basic Protection', 'Premium Shield', 'Platinum Elite']);
    expect(PLAN_LIST.map(guaranteeLabel)).toEqual(['3-day money-back', '7-day guarantee', '14-day guarantee']);
    expect(PLAN_LIST.map(insuranceLabel)).toEqual(['No transit insurance', 'Insurance up to $10K', 'Insurance up to $25K']);
    expect(PLAN_LIST.map(coverageLabel)).toEqual(['up to $100,000', 'up to $500,000', 'up to $1,000,000']);
  });

  it('shortens round amounts', () => {
    expect(compactUsd(10_000)).toBe('$10K');
    expect(compactUsd(1_500_000)).toBe('$1.5M');
    expect(compactUsd(750)).toBe('$750');
  });
});

describe('planFor', () => {
  it('keeps the preferred plan when it covers the price', () => {
    expect(planFor(90_000, 'basic')).toBe('basic');
    expect(planFor(100_000, 'basic')).toBe('basic');
    expect(planFor(250_000, 'platinum')).toBe('platinum');
  });

  it('moves to the cheapest plan that covers the price', () => {
    expect(planFor(100_001, 'basic')).toBe('premium');
    expect(planFor(600_000, 'premium')).toBe('platinum');
  });

  it('gives null when no plan covers the price', () => {
    expect(planFor(1_000_001, 'platinum')).toBeNull();
  });
});

describe('orderTotals', () => {
  it('adds the plan fee to the price', () => {
    expect(orderTotals(189_500, 'premium')).toEqual({ price: 189_500, fee: ESCROW_PLANS.premium.price, total: 189_899 });
  });
});
