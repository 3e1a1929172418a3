import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ESCROW_PLANS } from '@common/escrow-plans.ts';
import { PAGE_TITLES } from '@common/page-titles.ts';
import {
  BanknoteIcon,
  CardIcon,
  ClipboardCheckIcon,
  HeadsetIcon,
  LockIcon,
  ShieldCheckIcon,
  ThumbsUpIcon,
  UserIcon,
  WarningIcon,
} from '../../../components/ui/icons.tsx';
import { PageHero } from '../../../components/ui/page-hero.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { PLAN_LIST } from '../lib/plans.ts';
import { useEscrowPlanStore } from '../stores/escrow-plan-store.ts';
import { PlanCard } from './plan-card.tsx';
import './escrow.css';

const STEPS: readonly { title: string; text: string; icon: ReactNode }[] = [
  {
    title: 'Secure Payment',
    text: 'You pay the price and the escrow fee into an account held by our licensed escrow agent. The seller sees the money is there but cannot touch it.',
    icon: <CardIcon size={24} />,
  },
  {
    title: 'Vehicle Inspection',
    text: 'The car is delivered or you visit it. You, or an independent inspector, check it against the listing during your plan’s inspection window.',
    icon: <ClipboardCheckIcon size={24} />,
  },
  {
    title: 'Approval Process',
    text: 'You approve the vehicle, or request a resolution if it does not match the listing. Nothing is released while a question is open.',
    icon: <ThumbsUpIcon size={24} />,
  },
  {
    title: 'Payment Release',
    text: 'Once you approve, the funds are released to the seller and the title is transferred to you. Both of you are notified at every step.',
    icon: <BanknoteIcon size={24} />,
  },
];

const SECURITY: readonly { title: string; text: string; icon: ReactNode }[] = [
  {
    title: 'Licensed escrow agent',
    text: 'Your money is held in a segregated trust account by a licensed, insured escrow agent, never by the seller or by us.',
    icon: <ShieldCheckIcon size={22} />,
  },
  {
    title: 'Bank-level encryption',
    text: 'Payment details travel over encrypted connections and are never stored on your LuxeMotors account.',
    icon: <LockIcon size={22} />,
  },
  {
    title: 'Verified identities',
    text: 'Buyers verify their email before ordering, and sellers carry a Verified badge once their identity and documents are checked.',
    icon: <UserIcon size={22} />,
  },
  {
    title: 'Specialists on call',
    text: 'Questions during a purchase reach our escrow team by phone Mon-Fri 8AM-8PM PST, by email within 4 hours, or by live chat 24/7.',
    icon: <HeadsetIcon size={22} />,
  },
];

export function EscrowScreen() {
  useDocumentTitle(PAGE_TITLES.escrow);
  const titleId = useId();
  const stepsId = useId();
  const plansId = useId();
  const securityId = useId();
  const warningId = useId();
  const plan = useEscrowPlanStore((s) => s.plan);
  const setPlan = useEscrowPlanStore((s) => s.setPlan);

  return (
    <div className="escrow-page">
      <PageHero
        eyebrow="Escrow Service"
        title="Buy with complete protection"
        titleId={titleId}
        lead="Your money stays with a licensed escrow agent until you have inspected and approved the car. Only then is the seller paid."
      >
        <div className="page-hero__actions">
          <a href="#plans" className="btn btn--gold">
            Compare Plans
          </a>
          <Link to="/" className="btn btn--ghost-light">
            Browse Cars
          </Link>
        </div>
        <ul className="hero__trust">
          <li>
            <ShieldCheckIcon size={18} /> Funds held by a licensed agent
          </li>
          <li>
            <ClipboardCheckIcon size={18} /> Inspect before you pay the seller
          </li>
          <li>
            <ThumbsUpIcon size={18} /> {ESCROW_PLANS.premium.guaranteeDays}-day money-back guarantee
          </li>
        </ul>
      </PageHero>

      <section className="container escrow-section" aria-labelledby={stepsId}>
        <div className="section-head">
          <p className="eyebrow eyebrow--dark">Four simple steps</p>
          <h2 id={stepsId} className="section-title">
            How Escrow Works
          </h2>
        </div>
        <ol className="tile-grid escrow-steps">
          {STEPS.map((step, index) => (
            <li key={step.title} className="card stack escrow-step">
              <span className="escrow-step__number" aria-hidden="true">
                {index + 1}
              </span>
              <span className="ink-disc escrow-step__icon">{step.icon}</span>
              <h3 className="escrow-step__title">{step.title}</h3>
              <p className="escrow-step__text">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section id="plans" className="escrow-plans" aria-labelledby={plansId}>
        <div className="container">
          <div className="section-head">
            <p className="eyebrow eyebrow--dark">Escrow plans</p>
            <h2 id={plansId} className="section-title">
              Choose Your Protection Plan
            </h2>
            <p className="muted">
              One flat fee per purchase, whatever the price within the plan&apos;s limit. Your choice is
              pre-selected when you buy a car with escrow.
            </p>
          </div>
          <div className="tile-grid plan-grid">
            {PLAN_LIST.map((p) => (
              <PlanCard key={p.id} plan={p} selected={p.id === plan} onSelect={() => setPlan(p.id)} />
            ))}
          </div>
          <p className="plan-choice" role="status" data-testid="plan-choice">
            <strong>{ESCROW_PLANS[plan].name}</strong> selected. It will be pre-selected when you choose
            &ldquo;Buy with Escrow&rdquo; on a car&apos;s page.{' '}
            <Link to="/" className="text-link">
              Find your car
            </Link>
          </p>
        </div>
      </section>

      <section className="escrow-security" aria-labelledby={securityId}>
        <div className="container">
          <div className="section-head section-head--on-dark">
            <p className="eyebrow">Security</p>
            <h2 id={securityId} className="section-title">
              Your money is protected at every step
            </h2>
          </div>
          <ul className="tile-grid security-grid">
            {SECURITY.map((item) => (
              <li key={item.title} className="security-item">
                <span className="security-item__icon">{item.icon}</span>
                <h3 className="security-item__title">{item.title}</h3>
                <p className="security-item__text">{item.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="container escrow-section" aria-labelledby={warningId}>
        <div className="scam-warning" data-testid="scam-warning">
          <span className="icon-disc scam-warning__icon">
            <WarningIcon size={28} />
          </span>
          <div className="scam-warning__body">
            <h2 id={warningId} className="scam-warning__title">
              Beware of escrow scams
            </h2>
            <p>
              Fraudsters set up fake escrow websites and ask buyers to wire money to them. LuxeMotors
              never asks you to pay a seller directly, by wire transfer to a private account, in gift
              cards or in cryptocurrency, and never uses an escrow service other than its own.
            </p>
            <ul className="scam-warning__list">
              <li>Start every purchase from the car&apos;s page on LuxeMotors.</li>
              <li>Check the address bar before you enter payment details.</li>
              <li>If a seller pushes you to pay outside the platform, stop and tell us.</li>
            </ul>
            <Link to="/support" className="btn btn--dark btn--sm">
              Report a Suspicious Request
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}
