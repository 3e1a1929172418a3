import { describe, expect, it } from 'vitest';
import { notificationLink, orderIdIn } from './notification-link.ts';

describe('notificationLink', () => {
  it('leads to the order a notification names', () => {
    const n = { title: 'New escrow order', message: 'Bea ordered your 2022 Porsche 911 for $90,100 (Order #123). Waiting for the buyer.', carId: 4 };
    expect(notificationLink(n)).toEqual({ to: '/orders/123', label: 'View order' });
    expect(notificationLink({ title: 'Order #7 update', message: 'Paid.', carId: null })).toEqual({ to: '/orders/7', label: 'View order' });
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
  });
});
