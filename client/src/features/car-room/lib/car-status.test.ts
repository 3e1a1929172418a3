import { describe, expect, it } from 'vitest';
import { carStatusNotice } from './car-status.ts';

describe('carStatusNotice', () => {
  it('says nothing for a car on sale', () => {
    expect(carStatusNotice('active')).toBeNull();
    expect(carStatusNotice(undefined)).toBeNull();
  });

  it('names a pending sale and a sold car plainly', () => {
    expect(carStatusNotice('pending')).toMatchObject({ badge: 'Sale pending', tone: 'pending' });
    expect(carStatusNotice('pending')?.text).toMatch(/closed/);
    expect(carStatusNotice('sold')).toMatchObject({ badge: 'Sold', tone: 'sold' });
  });

  it('tells the seller a draft is not published yet', () => {
    expect(carStatusNotice('draft')).toMatchObject({ badge: 'Draft', tone: 'closed' });
    expect(carStatusNotice('draft')?.text).toMatch(/only you can see it/);
  });

  it('closes bidding for any other state, even one it does not know', () => {
    expect(carStatusNotice('ended')?.badge).toBe('Auction ended');
    expect(carStatusNotice('withdrawn')?.badge).toBe('No longer listed');
    expect(carStatusNotice('archived')?.tone).toBe('closed');
  });
});
