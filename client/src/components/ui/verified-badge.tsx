import { ShieldCheckIcon } from './icons.tsx';

/** "Verified" with a shield: a verified seller, buyer or account. `soft` is the quieter look (reviews). */
export function VerifiedBadge({ soft = false, testId }: { soft?: boolean; testId?: string }) {
  return (
    <span className={soft ? 'badge badge--soft' : 'badge badge--verified'} data-testid={testId}>
      <ShieldCheckIcon size={soft ? 13 : 14} />
      Verified
    </span>
  );
}
