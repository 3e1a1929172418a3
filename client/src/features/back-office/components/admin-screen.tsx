import { ErrorCode } from '@common/error-codes.ts';
import { useEffect, useId, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Link, NavLink, useParams } from 'react-router-dom';
import { isStaff } from '@common/back-office.ts';
import { ADMIN_SECTIONS, adminPath, isAdminSection, type AdminSection } from '@common/paths.ts';
import {
  ActivityIcon,
  BanknoteIcon,
  CarIcon,
  ClipboardCheckIcon,
  GavelIcon,
  HeadsetIcon,
  MessageIcon,
  UserIcon,
  WarningIcon,
  type IconProps,
} from '../../../components/ui/icons.tsx';
import { SignedIn } from '../../../components/signed-in.tsx';
import { ScreenLoading } from '../../../components/ui/load-state.tsx';
import { PageHero } from '../../../components/ui/page-hero.tsx';
import { toSessionUser, useSessionStore, type SessionUser } from '../../../lib/session-store.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { getOwnProfile } from '../api/admin-api.ts';
import { ConsoleAccessContext, type ConsoleRefusal } from '../hooks/console-access.ts';
import { ROLE_LABELS } from '../lib/format.ts';
import { AuditSection } from './audit-section.tsx';
import { ConsoleRefused } from './console-gates.tsx';
import { DisputesSection } from './disputes-section.tsx';
import { FlaggedBidsSection } from './flagged-bids-section.tsx';
import { LedgerSection } from './ledger-section.tsx';
import { ListingsSection } from './listings-section.tsx';
import { ModerationSection } from './moderation-section.tsx';
import { OverviewSection } from './overview-section.tsx';
import { TicketsSection } from './tickets-section.tsx';
import { UsersSection } from './users-section.tsx';
import { SECTION_HEADS, type SectionProps } from './section-parts.tsx';
import './console.css';

/** Each section's icon in the menu and its component; its name is its heading (SECTION_HEADS). */
const SECTIONS: Record<AdminSection, { Icon: ComponentType<IconProps>; Section: ComponentType<SectionProps> }> = {
  overview: { Icon: ActivityIcon, Section: OverviewSection },
  disputes: { Icon: WarningIcon, Section: DisputesSection },
  ledger: { Icon: BanknoteIcon, Section: LedgerSection },
  users: { Icon: UserIcon, Section: UsersSection },
  listings: { Icon: CarIcon, Section: ListingsSection },
  moderation: { Icon: MessageIcon, Section: ModerationSection },
  tickets: { Icon: HeadsetIcon, Section: TicketsSection },
  'flagged-bids': { Icon: GavelIcon, Section: FlaggedBidsSection },
  audit: { Icon: ClipboardCheckIcon, Section: AuditSection },
};

const sectionLabel = (section: AdminSection) => SECTION_HEADS[section].title;

/**
 * `/admin` and `/admin/:section`: the operator console. Signed-out visitors sign in first; to an
 * account without a staff role the console does not exist, so it gets `notFound`, the page any
 * unknown address shows (the server answers these addresses 404 too, and the API refuses them).
 */
export function AdminScreen({ notFound }: { notFound: ReactNode }) {
  return <SignedIn>{(user) => <ConsoleDoor user={user} notFound={notFound} />}</SignedIn>;
}

/**
 * Staff go in. Anyone else is shown that there is nothing here, once the server has confirmed the
 * role: the stored copy may be from before a role was granted.
 */
function ConsoleDoor({ user, notFound }: { user: SessionUser; notFound: ReactNode }) {
  const checked = useFreshProfile(user.id);
  if (isStaff(user.role)) return <Console user={user} notFound={notFound} />;
  if (!checked) return <ScreenLoading title="Console" label="Checking your access..." />;
  return notFound;
}

function Console({ user, notFound }: { user: SessionUser; notFound: ReactNode }) {
  const { section: param } = useParams();
  const section: AdminSection | null = param === undefined ? 'overview' : isAdminSection(param) ? param : null;
  const titleId = useId();
  const heroTitleId = useId();
  const [refusal, setRefusal] = useState<ConsoleRefusal | null>(null);
  useDocumentTitle(section ? `${sectionLabel(section)} · Console` : 'Console');
  const navRef = useRef<HTMLUListElement>(null);

  // On a phone the menu is a strip that scrolls sideways: keep the open section in sight there,
  // without scrolling the page.
  useEffect(() => {
    const list = navRef.current;
    const link = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !link || list.scrollWidth <= list.clientWidth) return;
    const left = link.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft || left + link.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = Math.max(0, left - (list.clientWidth - link.offsetWidth) / 2);
    }
  }, [section]);

  const content = useMemo(() => {
    if (!section) {
      return (
        <div className="stack console-missing">
          <h2 id={titleId} className="console-section__title">
            No such section
          </h2>
          <p className="muted">The console has no page at this address.</p>
          <Link to={adminPath()} className="btn btn--dark btn--sm">
            Console Overview
          </Link>
        </div>
      );
    }
    const { Section } = SECTIONS[section];
    return <Section user={user} titleId={titleId} />;
  }, [section, user, titleId]);

  // The API says this account is not staff after all (a role taken away since it was stored).
  if (refusal === ErrorCode.NOT_ALLOWED) return notFound;
  if (refusal) return <ConsoleRefused user={user} />;

  return (
    <ConsoleAccessContext.Provider value={setRefusal}>
      <div className="console" data-testid="console">
        <PageHero
          eyebrow="Operator console"
          title="Back Office"
          titleId={heroTitleId}
          lead={
            <>
              Signed in as <strong>{user.email}</strong> · {ROLE_LABELS[user.role]}. Every change you make here is kept in the audit log with
              its reason.
            </>
          }
          overlap
        />

        <div className="container page-overlap console-body">
          <nav className="card console-nav" aria-label="Console sections">
            <ul ref={navRef} className="console-nav__list">
              {ADMIN_SECTIONS.map((id) => {
                const { Icon } = SECTIONS[id];
                const label = sectionLabel(id);
                return (
                  <li key={id}>
                    <NavLink
                      to={adminPath(id)}
                      end
                      className={({ isActive }) => (isActive || (id === 'overview' && section === 'overview') ? 'console-nav__link is-active' : 'console-nav__link')}
                      aria-current={section === id ? 'page' : undefined}
                    >
                      <Icon size={18} />
                      {label}
                    </NavLink>
                  </li>
                );
              })}
            </ul>
          </nav>

          <section className="card console-panel" aria-labelledby={titleId} data-testid="console-section" data-section={section ?? 'none'}>
            {content}
          </section>
        </div>
      </div>
    </ConsoleAccessContext.Provider>
  );
}

/**
 * The stored user may be stale (a role granted or taken, two-factor turned on elsewhere): re-read
 * it once. True once the server answered (or could not).
 */
function useFreshProfile(userId: number): boolean {
  const [checkedFor, setCheckedFor] = useState<number | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    getOwnProfile(controller.signal)
      .then((data) => {
        const fresh = toSessionUser(data);
        const { user: current, setSession } = useSessionStore.getState();
        if (fresh && current && fresh.id === current.id) setSession({ user: fresh });
      })
      .catch(() => undefined)
      .finally(() => {
        if (!controller.signal.aborted) setCheckedFor(userId);
      });
    return () => controller.abort();
  }, [userId]);
  return checkedFor === userId;
}
