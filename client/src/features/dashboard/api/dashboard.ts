import type { CarListItem, Order } from '@common/api-types.ts';
import { api } from '../../../lib/api-client.ts';

export interface DashboardStats {
  activeBids: number;
  watchlist: number;
  messages: number;
  activity: number;
}

export interface ActivityItem {
  type: 'bid' | 'message' | 'order' | 'notification';
  title: string;
  description: string;
  carId: number | null;
  timestamp: string;
}

export interface DashboardSummary {
  stats: DashboardStats;
  recentActivity: ActivityItem[];
}

export interface UserBid {
  id: number;
  carId: number;
  userId: number;
  userName: string;
  amount: number;
  timestamp: string;
  status: 'leading' | 'outbid';
  car: {
    id: number;
    make: string;
    model: string;
    year: number;
    price: number;
    primaryImage: string | null;
    currentBids: number;
    highestBid: number | null;
  };
}

export interface Discussion {
  car: { id: number; year: number; make: string; model: string; primaryImage: string | null };
  messageCount: number;
  lastMessageAt: string;
}

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
