import { Tabs, useTabParam } from '../../../components/ui/tabs.tsx';
import type { Resource } from '../../../lib/use-resource.ts';
import type { DashboardSummary } from '../api/dashboard.ts';
import { ActivityPanel } from './activity-panel.tsx';
import { BidsPanel } from './bids-panel.tsx';
import { MessagesPanel } from './messages-panel.tsx';
import { MyListingsPanel } from './my-listings-panel.tsx';
import { OffersPanel } from './offers-panel.tsx';
import { OrdersPanel } from './orders-panel.tsx';
import { SettingsPanel } from './settings-panel.tsx';
import { WatchlistPanel } from './watchlist-panel.tsx';
import { SavedSearchesPanel } from '../../market/index.ts';

export const DASHBOARD_TABS = [
  { id: 'activity', label: 'Recent Activity' },
  { id: 'bids', label: 'My Bids' },
  { id: 'watchlist', label: 'Watchlist' },
  { id: 'messages', label: 'Messages' },
  { id: 'orders', label: 'Orders' },
  { id: 'offers', label: 'Offers' },
  { id: 'listings', label: 'My Listings' },
  { id: 'searches', label: 'Saved searches' },
  { id: 'settings', label: 'Settings' },
] as const;

export type DashboardTabId = (typeof DASHBOARD_TABS)[number]['id'];
const TAB_IDS = DASHBOARD_TABS.map((t) => t.id);

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
            case 'offers':
              return <OffersPanel userId={userId} />;
            case 'listings':
              return <MyListingsPanel userId={userId} />;
            case 'searches':
              return <SavedSearchesPanel />;
            case 'settings':
              return <SettingsPanel onEditProfile={onEditProfile} />;
          }
        }}
      />
    </section>
  );
}
