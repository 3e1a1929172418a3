import type { CarListItem, DashboardSummary, Discussion, Order, UserBid } from '@common/api-types.ts';
import { api } from '../../../lib/api-client.ts';

export type { ActivityItem, DashboardStats, DashboardSummary, Discussion, UserBid } from '@common/api-types.ts';

/** `GET /api/watchlist` gives cars in the listing shape. */
export type WatchedCar = CarListItem;
export type { Order } from '@common/api-types.ts';


export const getDashboardSummary = (signal?: AbortSignal) => api.get<DashboardSummary>('/api/users/dashboard', { signal });

export const getMyBids = (signal?: AbortSignal) =>
  api.get<{ bids: UserBid[] }>('/api/bids/user', { signal }).then((d) => d.bids);

export const getMyDiscussions = (signal?: AbortSignal) =>
  api.get<{ discussions: Discussion[] }>('/api/chat/user', { signal }).then((d) => d.discussions);

export const getWatchedCars = (signal?: AbortSignal) =>
  api.get<{ cars: WatchedCar[] }>('/api/watchlist', { signal }).then((d) => d.cars);

export const getMyOrders = (signal?: AbortSignal) =>
  api.get<{ orders: Order[] }>('/api/orders', { signal }).then((d) => d.orders);
