import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ActivityIcon, BellIcon, GavelIcon, MessageIcon, ReceiptIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time.ts';
import type { Resource } from '../../../lib/use-resource.ts';
import type { ActivityItem, DashboardSummary } from '../api/dashboard.ts';
import { EmptyPanel } from './panel-parts.tsx';
import { carPath } from '@common/paths.ts';

const ACTIVITY_ICONS: Record<ActivityItem['type'], ReactNode> = {
  bid: <GavelIcon size={18} />,
  message: <MessageIcon size={18} />,
  order: <ReceiptIcon size={18} />,
  notification: <BellIcon size={18} />,
};

/** "Recent Activity": the last 30 days of bids, messages, orders and notifications (from the summary). */
export function ActivityPanel({ summary, retry }: { summary: Resource<DashboardSummary>; retry: () => void }) {
  return (
    <Loaded resource={summary} retry={retry} label="Loading activity...">
      {({ recentActivity }) =>
        recentActivity.length === 0 ? (
          <EmptyPanel icon={<ActivityIcon size={28} />} title="No recent activity yet" link={{ to: '/', label: 'Explore the listings' }}>
            Bids, messages and purchases from the last 30 days will show up here.
          </EmptyPanel>
        ) : (
          <ol className="divided-list" aria-label="Recent activity, newest first">
            {recentActivity.map((item, index) => (
              <li key={`${item.type}-${item.timestamp}-${index}`} className="activity-item" data-testid="activity-item">
                <span className={`icon-disc activity-item__icon activity-item__icon--${item.type}`}>{ACTIVITY_ICONS[item.type]}</span>
                <div className="activity-item__body">
                  <p className="activity-item__title">
                    {item.carId !== null ? (
                      <Link to={carPath(item.carId)} className="dash-link">
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
