/**
 * Shapes of the REST contract that both the server (response building) and the web client
 * (reading responses) use, declared once.
 */

/** One car in `GET /api/cars` (snake_case, as the listing screen reads it). */
export interface CarListItem {
  id: number;
  year: number;
  make: string;
  model: string;
  price: number;
  market_value: number;
  condition: string;
  location: string;
  primary_image: string | null;
  seller_name: string;
  seller_verified: boolean;
  mileage: number;
  current_bids: number;
  /** Live number of viewers in the car's room. */
  viewing_count: number;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export interface Review {
  id: number;
  carId: number;
  userId: number | null;
  userName: string;
  rating: number;
  comment: string;
  date: string;
  verified: boolean;
}

/** `GET /api/cars/:id` (camelCase). */
export interface CarDetail {
  id: number;
  make: string;
  model: string;
  year: number;
  price: number;
  marketValue: number;
  mileage: number;
  condition: string;
  images: string[];
  description: string;
  seller: { id: number; name: string; rating: number; verified: boolean };
  currentBids: number;
  highestBid: number | null;
  viewingCount: number;
  location: string;
  features: string[];
  bodyStyle: string;
  reviews: Review[];
}

export type ChatMessageType = 'message' | 'question' | 'bid';

export interface ChatMessage {
  id: number;
  carId: number;
  userId: number | null;
  userName: string;
  message: string;
  timestamp: string;
  type: ChatMessageType;
}

export interface Bid {
  id: number;
  carId: number;
  userId: number;
  userName: string;
  amount: number;
  timestamp: string;
}

/** `POST /api/bids` success. */
export interface PlacedBid {
  bid: Bid;
  car: { id: number; currentBids: number; highestBid: number };
}

/** Contract §Orders. The server narrows `status` to its lifecycle states. */
export interface Order {
  id: number;
  carId: number;
  buyerId: number;
  sellerId: number;
  amount: number;
  plan: 'basic' | 'premium' | 'platinum';
  escrowFee: number;
  status: string;
  createdAt: string;
  updatedAt: string;
}
