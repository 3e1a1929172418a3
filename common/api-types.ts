import type { CarStatus } from './car-lifecycle.ts';
import type { AuctionOutcome } from './auction-rules.ts';
import type { NotificationType } from './enums.ts';
import type { AuditAction, AuditTargetType, TicketStatus, UserRole, UserStatus } from './back-office.ts';
import type { OrderActor, OrderStatus } from './order-lifecycle.ts';
import type { SaleRoute, SavedSearchAlerts } from './market-data.ts';
import type { SavedSearchQuery } from './schemas/discovery.ts';
import type { OfferActor, OfferHistoryAction, OfferParty, OfferStatus } from './offer-lifecycle.ts';

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
  /** Estimated from comparable cars; null when there are too few to say. */
  market_value: number | null;
  condition: string;
  location: string;
  primary_image: string | null;
  seller_name: string;
  seller_verified: boolean;
  mileage: number;
  current_bids: number;
  /** Extension: the highest bid so far, null before the first. */
  highest_bid: number | null;
  /** Live number of viewers in the car's room. */
  viewing_count: number;
  /** Null for a fixed-price listing. */
  auction: AuctionSummary | null;
}

/** A timed auction as every visitor sees it (the reserve itself stays the seller's). */
export interface AuctionSummary {
  /** When bidding closes; bids near the end move it later (soft close). */
  endsAt: string;
  /** True when the highest bid meets the reserve, or when there is no reserve. */
  reserveMet: boolean;
  ended: boolean;
  /** Extension: whether the seller set a reserve. */
  hasReserve: boolean;
  /** Extension: how many late bids moved the end. */
  extensions: number;
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

/** One uploaded photo: card (about 640 wide) and gallery (about 1600 wide), WebP with JPEG twins. */
export interface CarPhoto {
  width: number;
  height: number;
  card: { webp: string; jpeg: string };
  gallery: { webp: string; jpeg: string };
}

/** The auction on the car page: the summary, and once it has ended, how it ended. */
export interface AuctionDetail extends AuctionSummary {
  outcome: AuctionOutcome | null;
  /** Only for the seller: the reserve they set. */
  reservePrice?: number | null;
  /** Reserve not met: until when the seller may still accept the highest bid. */
  acceptUntil: string | null;
}

/**
 * Every page of the web app comes with the server's clock as it left (milliseconds since the
 * epoch) in a `Server-Timing` entry of this name, read from the navigation's timing: countdowns
 * are right from the first render, before any API answer.
 */
export const CLOCK_TIMING_NAME = 'clock';

/** `GET /api/cars/:id` (camelCase). */
export interface CarDetail {
  status: CarStatus;
  /** Null for a fixed-price listing. */
  auction: AuctionDetail | null;
  /** The server's clock when it answered, so countdowns can correct for the viewer's clock. */
  serverTime: string;
  id: number;
  make: string;
  model: string;
  year: number;
  price: number;
  /** Estimated from comparable cars (see `/valuation`); null when there are too few to say. */
  marketValue: number | null;
  /** Extension: `comparables` (estimated) or `reference` (the sample catalogue's value). */
  marketValueBasis: 'comparables' | 'reference' | null;
  mileage: number;
  condition: string;
  images: string[];
  /** Extension: the uploaded photos in every size (empty for the sample catalogue's illustrations). */
  photos: CarPhoto[];
  description: string;
  /** `userId` (extension): the account behind the seller, so clients can tell the seller's own car. */
  seller: { id: number; name: string; rating: number; verified: boolean; userId: number | null };
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
  /** `seller` when the car's seller wrote it (clients show a Seller badge), else null. */
  role: 'seller' | null;
}

export interface Bid {
  id: number;
  carId: number;
  userId: number;
  userName: string;
  amount: number;
  timestamp: string;
  /**
   * True when the system placed the bid for the bidder's maximum (proxy bid), false for a bid
   * placed by hand. Every bids answer and `bid:placed` carries it (`RecordedBid`); optional here
   * for the other answers that reuse the shape.
   */
  auto?: boolean;
}

/** A bid as `/api/bids` answers and `bid:placed` carry it. */
export type RecordedBid = Bid & { auto: boolean };

/**
 * `POST /api/bids` success. Extensions: `endsAt`, the auction's end after this bid, and
 * `reserveMet`, whether the highest bid now meets the reserve; both null when not an auction.
 * `bid` is the bidder's own recorded bid (at their maximum when a rival's larger maximum answered
 * it); `car` is the state after every bid the request recorded. `maxAmount` (the bidder's
 * maximum now in force) and `leading` are for the bidder alone.
 */
export interface PlacedBid {
  bid: RecordedBid;
  car: { id: number; currentBids: number; highestBid: number; endsAt: string | null; reserveMet: boolean | null };
  maxAmount: number;
  leading: boolean;
}

/** One movement of an order's money out of escrow (payout to the seller, or refund to the buyer). */
export interface PaymentLeg {
  amount: number;
  /** The payment provider's reference, once the money has moved. */
  reference: string | null;
  status: 'pending' | 'settled';
  settledAt: string | null;
}

/** Contract §Orders, with the lifecycle fields of v2 and a few extensions for screens. */
export interface Order {
  id: number;
  carId: number;
  buyerId: number;
  sellerId: number;
  amount: number;
  plan: 'basic' | 'premium' | 'platinum';
  escrowFee: number;
  status: OrderStatus;
  createdAt: string;
  updatedAt: string;
  paymentDueAt: string;
  inspectionDays: number;
  inspectionEndsAt: string | null;
  shipment: { carrier: string; trackingNumber: string; shippedAt: string } | null;
  payment: { reference: string; method: 'wire' | 'card'; amountCharged: number; paidAt: string } | null;
  /** Extension: the seller's payout (the price; the escrow fee is kept). */
  payout: PaymentLeg | null;
  /** Extension: the buyer's refund (price and fee). */
  refund: PaymentLeg | null;
  /** Extension: whose move carries the order forward; null once it is over. */
  waitingOn: OrderActor | null;
  /** Extension: the car, so lists need no second request. */
  car: { id: number; year: number; make: string; model: string; primaryImage: string | null; status: string };
  buyerName: string;
  sellerName: string;
}

export interface OrderEvent {
  id: number;
  /** Null for the first event. */
  from: OrderStatus | null;
  to: OrderStatus;
  actor: OrderActor;
  note: string | null;
  at: string;
}

export type OrderWithEvents = Order & { events: OrderEvent[] };

/** One line of an offer's thread, oldest first (contract §"Offers and second chance"). */
export interface OfferHistoryEntry {
  by: OfferActor;
  action: OfferHistoryAction;
  amount: number;
  at: string;
}

/** A private offer between one buyer and a car's seller. */
export interface Offer {
  id: number;
  carId: number;
  buyer: { id: number; name: string };
  /** The seller (as in CarDetail.seller.id). */
  sellerId: number;
  /** The amount on the table. */
  amount: number;
  /** Who put the amount on the table. */
  by: OfferParty;
  status: OfferStatus;
  expiresAt: string;
  orderId: number | null;
  history: OfferHistoryEntry[];
  secondChance: boolean;
  /** Extension: the buyer's note with the opening offer. */
  message: string | null;
  /** Extension: the seller's name and the car, so the thread and lists need no second request. */
  sellerName: string;
  /** `price`: the asking price, or an auction's starting price (`isAuction`). */
  car: { id: number; year: number; make: string; model: string; primaryImage: string | null; price: number; isAuction: boolean; status: string };
  createdAt: string;
  updatedAt: string;
}

/** A buyer's saved search (contract §"Discovery and market data"). */
export interface SavedSearch {
  id: number;
  name: string;
  query: SavedSearchQuery;
  alerts: SavedSearchAlerts;
  createdAt: string;
  lastAlertAt: string | null;
}

/** One point of a car's price history, oldest first. */
export interface PricePoint {
  price: number;
  at: string;
}

/** A sold car in `GET /api/results`: no buyer identity. */
export interface SoldResult {
  carId: number;
  year: number;
  make: string;
  model: string;
  mileage: number;
  soldPrice: number;
  soldAt: string;
  via: SaleRoute;
}

export interface Notification {
  id: number;
  type: NotificationType;
  title: string;
  message: string;
  timestamp: string;
  read: boolean;
  carId: number | null;
}

/** How an auction closed (`auction:ended`). */
export interface AuctionResult {
  carId: number;
  outcome: AuctionOutcome;
  highestBid: number | null;
  winnerId: number | null;
  orderId: number | null;
}

/** The account as its owner sees it (contract `User`): never a password hash or a token. */
export interface PublicUser {
  id: number;
  name: string;
  email: string;
  email_verified: boolean;
  avatar: string | null;
  bio: string | null;
  phone: string | null;
  location: string | null;
  created_at: string;
  role: UserRole;
  /** Whether sign-in asks for a code from an authenticator app. */
  totp_enabled: boolean;
}

/** Contract §Testimonials. `verified` is decided by the server and never sent. */
export interface Testimonial {
  id: number;
  customerName: string;
  customerImage: string | null;
  rating: number;
  comment: string;
  carPurchased: string | null;
  date: string;
  verified: boolean;
  location: string | null;
  purchaseAmount: number | null;
}

export interface TestimonialStats {
  count: number;
  /** Mean rating to one decimal; 0 when there are none. */
  averageRating: number;
  verifiedCount: number;
  /** Share of ratings of 4 or more, as a whole percent. */
  satisfaction: number;
}

/** A car in the short form bids and dashboards show. */
export interface CarSummary {
  id: number;
  make: string;
  model: string;
  year: number;
  price: number;
  primaryImage: string | null;
  currentBids: number;
  highestBid: number | null;
}

/** `GET /api/bids/user`: the user's bids, each with its car and whether it still leads. */
export interface UserBid extends Bid {
  auto: boolean;
  status: 'leading' | 'outbid';
  car: CarSummary;
  /** The user's maximum for the car, on their latest bid for it only (private to them). */
  maxAmount?: number;
}

/** One line of the dashboard's recent activity. */
export interface ActivityItem {
  type: 'bid' | 'message' | 'order' | 'notification';
  title: string;
  description: string;
  carId: number | null;
  timestamp: string;
}

export interface DashboardStats {
  activeBids: number;
  watchlist: number;
  messages: number;
  activity: number;
}

/** `GET /api/users/dashboard`. */
export interface DashboardSummary {
  stats: DashboardStats;
  recentActivity: ActivityItem[];
}

/** `GET /api/chat/user`: a car the user discussed. */
export interface Discussion {
  car: { id: number; year: number; make: string; model: string; primaryImage: string | null };
  messageCount: number;
  lastMessageAt: string;
}

// ── Operator back office (contract §Operator back office) ───────────────────────────────

export interface AdminOverview {
  ordersByStatus: Partial<Record<OrderStatus, number>>;
  /** Dollars charged into escrow and not yet paid out or refunded (fees kept included). */
  escrowHeld: number;
  /** How many payouts (and refunds) are recorded and not yet settled: counts, not dollars. */
  payoutsPending: number;
  refundsPending: number;
  disputesOpen: number;
  flaggedBids: number;
  ticketsOpen: number;
}

export type LedgerKind = 'charge' | 'payout' | 'refund';
export interface LedgerEntry {
  id: number;
  orderId: number;
  kind: LedgerKind;
  amount: number;
  reference: string | null;
  status: 'pending' | 'settled';
  at: string;
}
export interface LedgerTotals {
  charged: number;
  paidOut: number;
  refunded: number;
  /** Charged and not paid out or refunded: in escrow, unsettled, and the escrow fees kept. */
  held: number;
  /** Extension: the part of `held` that is escrow fees earned. */
  feesKept: number;
}

export interface AdminUser {
  id: number;
  name: string;
  email: string;
  role: UserRole;
  status: UserStatus;
  createdAt: string;
  sellerVerified: boolean;
}

export interface AdminTicket {
  id: number;
  reference: string;
  email: string;
  subject: string;
  category: string;
  priority: string;
  message: string;
  status: TicketStatus;
  createdAt: string;
  replies: { message: string; by: string; at: string }[];
}

export interface FlaggedBid extends Bid {
  reason: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: { id: number | null; email: string } | 'cli';
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: number;
  reason: string;
  before: unknown;
  after: unknown;
  hash: string;
  prevHash: string;
}
