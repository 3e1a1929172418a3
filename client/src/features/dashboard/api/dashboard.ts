import type { UserBids } from '@common/schemas/bids.ts';
import type { CarListItem, WatchedCars } from '@common/schemas/cars.ts';
import type { Discussions } from '@common/schemas/chat.ts';
import type { Orders } from '@common/schemas/orders.ts';
import type { DashboardSummary } from '@common/schemas/users.ts';
import { api } from '../../../lib/api-client.ts';

export type { ActivityItem, DashboardStats, DashboardSummary } from '@common/schemas/users.ts';
export type { Discussion } from '@common/schemas/chat.ts';
export type { UserBid } from '@common/schemas/bids.ts';
export type { Order } from '@common/schemas/orders.ts';

/** `GET /api/watchlist` gives cars in the listing shape. */
export type WatchedCar = CarListItem;

export const getDashboardSummary = (signal?: AbortSignal) => api.get<DashboardSummary>('/api/users/dashboard', { signal });

export const getMyBids = (signal?: AbortSignal) => api.get<UserBids>('/api/bids/user', { signal }).then((d) => d.bids);

export const getMyDiscussions = (signal?: AbortSignal) => api.get<Discussions>('/api/chat/user', { signal }).then((d) => d.discussions);

export const getWatchedCars = (signal?: AbortSignal) => api.get<WatchedCars>('/api/watchlist', { signal }).then((d) => d.cars);

export const getMyOrders = (signal?: AbortSignal) => api.get<Orders>('/api/orders', { signal }).then((d) => d.orders);
