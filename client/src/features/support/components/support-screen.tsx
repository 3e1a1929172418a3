import { useId, useRef, type ComponentType, type ReactNode } from 'react';
import { ClockIcon, MailIcon, MessageIcon, PhoneIcon, type IconProps } from '../../../components/ui/icons.tsx';
import { PageHero } from '../../../components/ui/page-hero.tsx';
import { Tabs, useTabParam } from '../../../components/ui/tabs.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { FaqPanel } from './faq-panel.tsx';
import { SystemStatus } from './system-status.tsx';
import { TicketForm } from './ticket-form.tsx';
import './support.css';

const TAB_IDS = ['faq', 'ticket', 'status'] as const;
type SupportTab = (typeof TAB_IDS)[number];
const TABS = [
  { id: 'faq', label: 'FAQ' },
  { id: 'ticket', label: 'Submit a Ticket' },
  { id: 'status', label: 'System Status' },
] as const;

const SUPPORT_PHONE = { display: '+1 (800) 555-0199', href: 'tel:+18005550199' };
const SUPPORT_EMAIL = 'support@luxemotors.com';

export function SupportScreen() {
  useDocumentTitle('Support');
  const titleId = useId();
  const helpTitleId = useId();
  const [tab, setTab] = useTabParam<SupportTab>(TAB_IDS);
  const tabsRef = useRef<HTMLDivElement>(null);

  function openTicketTab() {
    setTab('ticket');
    requestAnimationFrame(() => {
      tabsRef.current?.scrollIntoView({ block: 'start' });
      tabsRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
    });
  }

  return (
    <div className="support-page">
      <PageHero
        eyebrow="Customer care"
        title="How can we help?"
        titleId={titleId}
        lead="Real people who know premium cars and escrow inside out. Call, write or chat, or find your answer in the FAQ."
        overlap
      />

      <div className="container page-overlap">
        <ul className="tile-grid contact-grid" aria-label="Contact options">
          <ContactCard
            Icon={PhoneIcon}
            title="Phone"
            availability="Mon-Fri 8AM-8PM PST"
            text="Speak to a specialist about a car, an order or your account."
            action={{ href: SUPPORT_PHONE.href, label: `Call ${SUPPORT_PHONE.display}` }}
          />
          <ContactCard
            Icon={MailIcon}
            title="Email"
            availability="Response within 4 hours"
            text={
              <>
                Write to <strong>{SUPPORT_EMAIL}</strong> with documents, screenshots or detailed questions.
              </>
            }
            action={{ href: `mailto:${SUPPORT_EMAIL}`, label: 'Email Us' }}
          />
          <ContactCard
            Icon={MessageIcon}
            title="Live Chat"
            availability="24/7"
            text="Message our team any time, day or night; we answer in minutes."
            action={{ onClick: openTicketTab, label: 'Message Us' }}
          />
        </ul>

        <section className="support-help" aria-labelledby={helpTitleId} ref={tabsRef}>
          <h2 id={helpTitleId} className="sr-only">
            Help centre
          </h2>
          <Tabs
            tabs={TABS}
            active={tab}
            onSelect={setTab}
            label="Help centre"
            className="card surface-tabs"
            renderPanel={(id) =>
              id === 'faq' ? <FaqPanel onAskUs={openTicketTab} /> : id === 'ticket' ? <TicketForm /> : <SystemStatus />
            }
          />
        </section>
      </div>
    </div>
  );
}

/** A way to reach us: when it is open, what it is for, and a link or a button that starts it. */
function ContactCard({
  Icon,
  title,
  availability,
  text,
  action,
}: {
  Icon: ComponentType<IconProps>;
  title: string;
  availability: string;
  text: ReactNode;
  action: { label: string } & ({ href: string } | { onClick: () => void });
}) {
  return (
    <li className="card stack contact-card" data-testid="contact-option">
      <span className="contact-card__icon">
        <Icon size={24} />
      </span>
      <h3 className="contact-card__title">{title}</h3>
      <p className="icon-text contact-card__availability">
        <ClockIcon size={16} />
        {availability}
      </p>
      <p className="contact-card__text">{text}</p>
      {'href' in action ? (
        <a href={action.href} className="btn btn--outline btn--sm">
          {action.label}
        </a>
      ) : (
        <button type="button" className="btn btn--outline btn--sm" onClick={action.onClick}>
          {action.label}
        </button>
      )}
    </li>
  );
}
