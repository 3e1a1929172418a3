import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ESCROW_PLANS } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import {
  ActivityIcon,
  BellIcon,
  CardIcon,
  CarIcon,
  GavelIcon,
  HeartIcon,
  LockIcon,
  MessageIcon,
  ReceiptIcon,
  UserIcon,
} from '../../../components/ui/icons.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { Tabs, useTabParam } from '../../../components/ui/tabs.tsx';
import { nextStepText, orderRole, roleLabel } from '../../../lib/order-progress.ts';
import { orderStatusLabel, orderStatusTone } from '../../../lib/order-status.ts';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time.ts';
import { useResource, type Resource } from '../../../lib/use-resource.ts';
import { useWatchlistStore } from '../../../lib/watchlist-store.ts';
import {
  getMyBids,
  getMyDiscussions,
  getMyOrders,
  getWatchedCars,
  type ActivityItem,
  type DashboardSummary,
} from '../api/dashboard.ts';
import { carName } from '../lib/dashboard-format.ts';
import { MyListingsPanel } from './my-listings-panel.tsx';

export const DASHBOARD_TABS = [
  { id: 'activity', label: 'Recent Activity' },
  { id: 'bids', label: 'My Bids' },
  { id: 'watchlist', label: 'Watchlist' },
  { id: 'messages', label: 'Messages' },
  { id: 'orders', label: 'Orders' },
  { id: 'listings', label: 'My Listings' },
  { id: 'settings', label: 'Settings' },
] as const;

export type DashboardTabId = (typeof DASHBOARD_TABS)[number]['id'];
const TAB_IDS = DASHBOARD_TABS.map((t) => t.id);

function EmptyPanel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="dash-empty">
      <span className="dash-empty__icon">{icon}</span>
      <p className="dash-empty__title">{title}</p>
      <p className="dash-empty__text">{children}</p>
    </div>
  );
}

/** Loading and error states shared by the tabs; renders `children(data)` once loaded. */
function Loaded<T>({
  resource,
  retry,
  label,
  children,
}: {
  resource: Resource<T>;
  retry: () => void;
  label: string;
  children: (data: T) => ReactNode;
}) {
  if (resource.status === 'loading') return <LoadingStatus label={label} />;
  if (resource.status === 'error') {
    return (
      <div className="notice notice--error" role="alert">
        <p>{resource.message}</p>
        <button type="button" className="btn btn--dark btn--sm" onClick={retry}>
          Retry
        </button>
      </div>
    );
  }
  return <>{children(resource.data)}</>;
}

function Thumb({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  return src && !failed ? (
    <img className="dash-row__thumb" src={src} alt="" width={96} height={64} loading="lazy" onError={() => setFailed(true)} />
  ) : (
    <span className="dash-row__thumb dash-row__thumb--none" aria-hidden="true">
      <CarIcon size={22} />
    </span>
  );
}

const ACTIVITY_ICONS: Record<ActivityItem['type'], ReactNode> = {
  bid: <GavelIcon size={18} />,
  message: <MessageIcon size={18} />,
  order: <ReceiptIcon size={18} />,
  notification: <BellIcon size={18} />,
};

function ActivityPanel({ summary, retry }: { summary: Resource<DashboardSummary>; retry: () => void }) {
  return (
    <Loaded resource={summary} retry={retry} label="Loading activity...">
      {({ recentActivity }) =>
        recentActivity.length === 0 ? (
          <EmptyPanel icon={<ActivityIcon size={28} />} title="No recent activity yet">
            Bids, messages and purchases from the last 30 days will show up here.{' '}
            <Link to="/" className="text-link">
              Explore the listings
            </Link>
          </EmptyPanel>
        ) : (
          <ol className="activity-list" aria-label="Recent activity, newest first">
            {recentActivity.map((item, index) => (
              <li key={`${item.type}-${item.timestamp}-${index}`} className="activity-item" data-testid="activity-item">
                <span className={`activity-item__icon activity-item__icon--${item.type}`}>{ACTIVITY_ICONS[item.type]}</span>
                <div className="activity-item__body">
                  <p className="activity-item__title">
                    {item.carId !== null ? (
                      <Link to={`/car/${item.carId}`} className="dash-link">
                        {item.title}
                      </Link>
                    ) : (
                      item.title
                    )}
                  </p>
                  <p className="activity-item__text">{item.description}</p>
                </div>
                <time className="activity-item__time" dateTime={item.timestamp} title={formatDateTime(item.timestamp)}>
                  {formatRelativeTime(item.timestamp)}
                </time>
              </li>
            ))}
          </ol>
        )
      }
    </Loaded>
  );
}

function BidsPanel() {
  const { resource, retry } = useResource('bids', getMyBids);
  return (
    <Loaded resource={resource} retry={retry} label="Loading your bids...">
      {(bids) =>
        bids.length === 0 ? (
          <EmptyPanel icon={<GavelIcon size={28} />} title="No bids yet">
            Place a bid on a car&apos;s page and follow it here.{' '}
            <Link to="/" className="text-link">
              Find a car
            </Link>
          </EmptyPanel>
        ) : (
          <ul className="dash-rows" aria-label="Your bids, newest first">
            {bids.map((bid) => (
              <li key={bid.id} className="dash-row" data-testid="bid-row">
                <Thumb src={bid.car.primaryImage} />
                <div className="dash-row__main">
                  <Link to={`/car/${bid.car.id}`} className="dash-row__title dash-link">
                    {carName(bid.car)}
                  </Link>
                  <p className="dash-row__meta">
                    Your bid <strong>{formatUsd(bid.amount)}</strong>
                    {bid.car.highestBid !== null && <> · Highest {formatUsd(bid.car.highestBid)}</>} ·{' '}
                    <time dateTime={bid.timestamp}>{formatDateTime(bid.timestamp)}</time>
                  </p>
                </div>
                <span className={bid.status === 'leading' ? 'status-badge status-badge--done' : 'status-badge status-badge--problem'}>
                  {bid.status === 'leading' ? 'Leading' : 'Outbid'}
                </span>
              </li>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}

function WatchlistPanel() {
  const { resource, retry, mutate } = useResource('watchlist', getWatchedCars);
  const remove = useWatchlistStore((s) => s.remove);
  const pending = useWatchlistStore((s) => s.pending);
  const [failed, setFailed] = useState<number | null>(null);

  async function onRemove(carId: number) {
    setFailed(null);
    const removed = await remove(carId);
    if (removed) mutate((cars) => cars.filter((c) => c.id !== carId));
    else setFailed(carId);
  }

  return (
    <Loaded resource={resource} retry={retry} label="Loading your watchlist...">
      {(cars) =>
        cars.length === 0 ? (
          <EmptyPanel icon={<HeartIcon size={28} />} title="Your watchlist is empty">
            Tap the heart on any car to follow its price and bids here.{' '}
            <Link to="/" className="text-link">
              Browse cars
            </Link>
          </EmptyPanel>
        ) : (
          <ul className="watch-grid" aria-label="Watched cars">
            {cars.map((car) => (
              <li key={car.id} className="watch-card" data-testid="watch-card">
                <Thumb src={car.primary_image} />
                <div className="watch-card__body">
                  <Link to={`/car/${car.id}`} className="dash-row__title dash-link">
                    {carName(car)}
                  </Link>
                  <p className="watch-card__price">{formatUsd(car.price)}</p>
                  <p className="dash-row__meta">
                    {car.location} · {car.current_bids === 1 ? '1 bid' : `${car.current_bids} bids`}
                  </p>
                  {failed === car.id && (
                    <p className="field__hint field__hint--error" role="alert">
                      Could not remove this car. Please try again.
                    </p>
                  )}
                </div>
                <button
                  type="button"
                  className="btn btn--outline btn--sm"
                  onClick={() => void onRemove(car.id)}
                  disabled={pending.has(car.id)}
                  aria-label={`Remove ${carName(car)} from watchlist`}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}

function MessagesPanel() {
  const { resource, retry } = useResource('discussions', getMyDiscussions);
  return (
    <Loaded resource={resource} retry={retry} label="Loading your conversations...">
      {(discussions) =>
        discussions.length === 0 ? (
          <EmptyPanel icon={<MessageIcon size={28} />} title="No messages yet">
            Ask a seller a question in a car&apos;s live discussion and the conversation will appear here.
          </EmptyPanel>
        ) : (
          <ul className="dash-rows" aria-label="Your discussions, most recent first">
            {discussions.map((d) => (
              <li key={d.car.id} className="dash-row" data-testid="discussion-row">
                <Thumb src={d.car.primaryImage} />
                <div className="dash-row__main">
                  <Link to={`/car/${d.car.id}`} className="dash-row__title dash-link">
                    {carName(d.car)}
                  </Link>
                  <p className="dash-row__meta">
                    {d.messageCount === 1 ? '1 message' : `${d.messageCount} messages`} · last{' '}
                    <time dateTime={d.lastMessageAt}>{formatRelativeTime(d.lastMessageAt)}</time>
                  </p>
                </div>
                <Link to={`/car/${d.car.id}`} className="btn btn--outline btn--sm" aria-label={`Open discussion about the ${carName(d.car)}`}>
                  Open
                </Link>
              </li>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}

function OrdersPanel({ userId }: { userId: number }) {
  const { resource, retry } = useResource(`orders:${userId}`, getMyOrders);
  return (
    <Loaded resource={resource} retry={retry} label="Loading your orders...">
      {(orders) =>
        orders.length === 0 ? (
          <EmptyPanel icon={<ReceiptIcon size={28} />} title="No orders yet">
            When you buy or sell a car with escrow, the order and its status appear here.{' '}
            <Link to="/escrow" className="text-link">
              How escrow works
            </Link>
          </EmptyPanel>
        ) : (
          <ul className="dash-rows" aria-label="Your orders, newest first">
            {orders.map((order) => {
              const name = carName(order.car);
              const plan = ESCROW_PLANS[order.plan]?.name ?? order.plan;
              const role = orderRole(order, userId);
              return (
                <li key={order.id} className="dash-row dash-row--order" data-testid="order-row" data-order-id={order.id}>
                  <Thumb src={order.car.primaryImage} />
                  <div className="dash-row__main">
                    <Link to={`/car/${order.car.id}`} className="dash-row__title dash-link">
                      {name}
                    </Link>
                    <p className="dash-row__meta">
                      Order #{order.id} · <strong>{roleLabel(role)}</strong> · {plan} ·{' '}
                      <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
                    </p>
                    <p className="dash-row__meta">
                      {formatUsd(order.amount)} + {formatUsd(order.escrowFee)} escrow fee ={' '}
                      <strong>{formatUsd(order.amount + order.escrowFee)}</strong>
                    </p>
                    <p className="dash-row__next" data-testid="order-next-step">
                      {nextStepText(order, role)}
                    </p>
                  </div>
                  <div className="dash-row__side">
                    <span className={`status-badge status-badge--${orderStatusTone(order.status)}`} data-testid="order-status">
                      {orderStatusLabel(order.status)}
                    </span>
                    <Link to={`/orders/${order.id}`} className="btn btn--outline btn--sm" aria-label={`View order #${order.id}`}>
                      View Order
                    </Link>
                  </div>
                </li>
              );
            })}
          </ul>
        )
      }
    </Loaded>
  );
}

function SettingsPanel({ onEditProfile }: { onEditProfile: () => void }) {
  return (
    <ul className="settings-grid">
      <li className="settings-tile">
        <span className="settings-tile__icon">
          <UserIcon size={22} />
        </span>
        <h3 className="settings-tile__title">Profile Information</h3>
        <p className="settings-tile__text">Your name, photo, phone, location and bio.</p>
        <button type="button" className="btn btn--outline btn--sm" onClick={onEditProfile}>
          Update Profile
        </button>
      </li>
      <li className="settings-tile">
        <span className="settings-tile__icon">
          <LockIcon size={22} />
        </span>
        <h3 className="settings-tile__title">Security</h3>
        <p className="settings-tile__text">
          Change your password with a secure link sent to your email. Every device will need to
          sign in again.
        </p>
        <Link to="/forgot-password" className="btn btn--outline btn--sm">
          Change Password
        </Link>
      </li>
      <li className="settings-tile">
        <span className="settings-tile__icon">
          <BellIcon size={22} />
        </span>
        <h3 className="settings-tile__title">Notifications</h3>
        <p className="settings-tile__text">
          Bids, messages and order updates arrive in the bell at the top of every page. Email
          preferences are coming soon.
        </p>
      </li>
      <li className="settings-tile">
        <span className="settings-tile__icon">
          <CardIcon size={22} />
        </span>
        <h3 className="settings-tile__title">Payment Methods</h3>
        <p className="settings-tile__text">
          Purchases are paid into escrow for each order, so no card is stored on your account.
        </p>
        <Link to="/escrow" className="btn btn--outline btn--sm">
          How Escrow Works
        </Link>
      </li>
    </ul>
  );
}

/** The dashboard's tabs; the open one is kept in the URL (`?tab=orders`). */
export function DashboardTabs({
  userId,
  summary,
  retrySummary,
  onEditProfile,
}: {
  userId: number;
  summary: Resource<DashboardSummary>;
  retrySummary: () => void;
  onEditProfile: () => void;
}) {
  const [active, setActive] = useTabParam<DashboardTabId>(TAB_IDS);
  return (
    <section className="card dash-tabs" aria-label="Your account">
      <Tabs
        tabs={DASHBOARD_TABS}
        active={active}
        onSelect={setActive}
        label="Dashboard sections"
        renderPanel={(id) => {
          switch (id) {
            case 'activity':
              return <ActivityPanel summary={summary} retry={retrySummary} />;
            case 'bids':
              return <BidsPanel />;
            case 'watchlist':
              return <WatchlistPanel />;
            case 'messages':
              return <MessagesPanel />;
            case 'orders':
              return <OrdersPanel userId={userId} />;
            case 'listings':
              return <MyListingsPanel userId={userId} />;
            case 'settings':
              return <SettingsPanel onEditProfile={onEditProfile} />;
          }
        }}
      />
    </section>
  );
}
