import { Link } from 'react-router-dom';
import { MessageIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { formatRelativeTime } from '../../../lib/relative-time.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { getMyDiscussions } from '../api/dashboard.ts';
import { carName } from '../lib/dashboard-format.ts';
import { CarRow, EmptyPanel } from './panel-parts.tsx';
import { carPath } from '@common/paths.ts';

/** "Messages": the car discussions the viewer took part in. */
export function MessagesPanel() {
  const { resource, retry } = useResource('discussions', getMyDiscussions);
  return (
    <Loaded resource={resource} retry={retry} label="Loading your conversations...">
      {(discussions) =>
        discussions.length === 0 ? (
          <EmptyPanel icon={<MessageIcon size={28} />} title="No messages yet">
            Ask a seller a question in a car&apos;s live discussion and the conversation will appear here.
          </EmptyPanel>
        ) : (
          <ul className="divided-list" aria-label="Your discussions, most recent first">
            {discussions.map((d) => (
              <CarRow
                key={d.car.id}
                car={d.car}
                data-testid="discussion-row"
                aside={
                  <Link to={carPath(d.car.id)} className="btn btn--outline btn--sm" aria-label={`Open discussion about the ${carName(d.car)}`}>
                    Open
                  </Link>
                }
              >
                <p className="dash-row__meta">
                  {d.messageCount === 1 ? '1 message' : `${d.messageCount} messages`} · last{' '}
                  <time dateTime={d.lastMessageAt}>{formatRelativeTime(d.lastMessageAt)}</time>
                </p>
              </CarRow>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}
