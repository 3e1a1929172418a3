import { describe, expect, it } from 'vitest';
import type { AppNotification } from '../api/notifications-api.ts';
import { addNotification, applySnapshot, markRead, revertRead, type NotificationList } from './notification-merge.ts';

const n = (id: number, read = false): AppNotification => ({
  id,
  type: 'bid',
  event: 'bid_received',
  title: `Title ${id}`,
  message: `Message ${id}`,
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, id)).toISOString(),
  read,
  carId: 1,
});
const EMPTY: NotificationList = { notifications: [], unreadCount: 0 };
const ids = (list: NotificationList) => list.notifications.map((x) => x.id);

describe('notification merge', () => {
  it('a pushed notification is prepended once and counted once', () => {
    let state = applySnapshot(EMPTY, { notifications: [n(2), n(1, true)], unreadCount: 1 });
    state = addNotification(state, n(3));
    expect(ids(state)).toEqual([3, 2, 1]);
    expect(state.unreadCount).toBe(2);
    expect(addNotification(state, n(3))).toBe(state);
  });

  it('keeps and counts notifications pushed while the snapshot was in flight', () => {
    const pushed = addNotification(EMPTY, n(5));
    const state = applySnapshot(pushed, { notifications: [n(4), n(3, true)], unreadCount: 1 });
    expect(ids(state)).toEqual([5, 4, 3]);
    expect(state.unreadCount).toBe(2);
  });

  it('does not count twice a pushed notification the snapshot already holds', () => {
    const pushed = addNotification(EMPTY, n(5));
    const state = applySnapshot(pushed, { notifications: [n(5), n(4)], unreadCount: 2 });
    expect(ids(state)).toEqual([5, 4]);
    expect(state.unreadCount).toBe(2);
  });

  it('marks one read and reverts exactly', () => {
    const start = applySnapshot(EMPTY, { notifications: [n(2), n(1)], unreadCount: 2 });
    const { state, changed, decrement } = markRead(start, [1]);
    expect(changed).toEqual([1]);
    expect(state.unreadCount).toBe(1);
    expect(state.notifications.find((x) => x.id === 1)?.read).toBe(true);
    const reverted = revertRead(state, changed, decrement);
    expect(reverted.unreadCount).toBe(2);
    expect(reverted.notifications.find((x) => x.id === 1)?.read).toBe(false);
    // Already read: nothing changes.
    expect(markRead(state, [1]).state).toBe(state);
  });

  it('marks all read, including unread ones not loaded, and reverts keeping what arrived since', () => {
    const start = applySnapshot(EMPTY, { notifications: [n(2), n(1)], unreadCount: 5 });
    const { state, changed, decrement } = markRead(start, 'all');
    expect(state.unreadCount).toBe(0);
    expect(state.notifications.every((x) => x.read)).toBe(true);
    const withNew = addNotification(state, n(3));
    const reverted = revertRead(withNew, changed, decrement);
    expect(reverted.unreadCount).toBe(6);
    expect(reverted.notifications.filter((x) => !x.read).map((x) => x.id)).toEqual([3, 2, 1]);
  });
});
