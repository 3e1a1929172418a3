import { useId, useRef, type ReactNode } from 'react';
import { ClockIcon, MailIcon, MessageIcon, PhoneIcon } from '../../../components/ui/icons.tsx';
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
            icon={<PhoneIcon size={24} />}
            title="Phone"
            availability="Mon-Fri 8AM-8PM PST"
            text="Speak to a specialist about a car, an order or your account."
            action={
              <a href={SUPPORT_PHONE.href} className="btn btn--outline btn--sm">
                Call {SUPPORT_PHONE.display}
              </a>
            }
          />
          <ContactCard
            icon={<MailIcon size={24} />}
            title="Email"
            availability="Response within 4 hours"
            text={
              <>
                Write to <strong>{SUPPORT_EMAIL}</strong> with documents, screenshots or detailed questions.
              </>
            }
            action={
              <a href={`mailto:${SUPPORT_EMAIL}`} className="btn btn--outline btn--sm">
                Email Us
              </a>
            }
          />
          <ContactCard
            icon={<MessageIcon size={24} />}
            title="Live Chat"
            availability="24/7"
            text="Message our team any time, day or night; we answer in minutes."
            action={
              <button type="button" className="btn btn--outline btn--sm" onClick={openTicketTab}>
                Message Us
              </button>
            }
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

function ContactCard({
  icon,
  title,
  availability,
  text,
  action,
}: {
  icon: ReactNode;
  title: string;
  availability: string;
  text: ReactNode;
  action: ReactNode;
}) {
  return (
    <li className="card stack contact-card" data-testid="contact-option">
      <span className="contact-card__icon">{icon}</span>
      <h3 className="contact-card__title">{title}</h3>
      <p className="icon-text contact-card__availability">
        <ClockIcon size={16} />
        {availability}
      </p>
      <p className="contact-card__text">{text}</p>
      {action}
    </li>
  );
}
