import { describe, expect, it } from 'vitest';
import { notificationLink, offerIdIn, orderIdIn } from './notification-link.ts';

describe('notificationLink', () => {
  it('leads to the order a notification names', () => {
    const n = { title: 'New escrow order', message: 'Bea ordered your 2022 Porsche 911 for $90,100 (Order #123). Waiting for the buyer.', carId: 4 };
    expect(notificationLink(n)).toEqual({ to: '/orders/123', label: 'View order' });
    expect(notificationLink({ title: 'Order #7 update', message: 'Paid.', carId: null })).toEqual({ to: '/orders/7', label: 'View order' });
  });

  it('leads to the offer an offer notification names, unless it names an order too', () => {
    expect(notificationLink({ title: 'Counter-offer', message: 'Offer #45: Sam countered with $92,000 for the 2021 BMW M3.', carId: 4 })).toEqual({
      to: '/offers/45',
      label: 'View offer',
    });
    expect(notificationLink({ title: 'Second chance offer', message: 'Offer #9: the seller offers you the car at $70,000.', carId: null })).toEqual({
      to: '/offers/9',
      label: 'View offer',
    });
    expect(notificationLink({ title: 'Offer accepted', message: 'Offer #45: accepted at $92,000 (Order #123). Pay within 3 days.', carId: 4 })).toEqual({
      to: '/orders/123',
      label: 'View order',
    });
  });

  it('leads to the car otherwise, or nowhere', () => {
    expect(notificationLink({ title: 'New bid on your car', message: 'Bob bid $50,000', carId: 4 })).toEqual({ to: '/car/4', label: 'View car' });
    expect(notificationLink({ title: 'Welcome', message: 'Hello', carId: null })).toBeNull();
  });

  it('reads only a real order number', () => {
    expect(orderIdIn('Order #')).toBeNull();
    expect(orderIdIn('Order #0 was odd')).toBeNull();
    expect(orderIdIn('order #12')).toBeNull();
    expect(orderIdIn('Order #99999999999')).toBeNull();
    expect(orderIdIn('Order #42: shipped')).toBe(42);
    expect(offerIdIn('Offer #0: odd')).toBeNull();
    expect(offerIdIn('offer #3')).toBeNull();
    expect(offerIdIn('Offer #31: expired')).toBe(31);
  });
});
