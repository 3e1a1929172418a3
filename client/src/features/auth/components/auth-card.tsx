import { useId, type ReactNode } from 'react';
import { Emblem, MailIcon } from '../../../components/ui/icons.tsx';

/** The frame of every account screen: a centred card on the dark brand band. */
export function AuthCard({
  title,
  subtitle,
  icon,
  children,
  footer,
  testId,
}: {
  title: string;
  subtitle?: ReactNode;
  /** Replaces the emblem, e.g. a mail icon on "Check Your Email". */
  icon?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  testId?: string;
}) {
  const titleId = useId();
  return (
    <section className="auth-page" aria-labelledby={titleId} data-testid={testId}>
      <div className="container auth-page__inner">
        <div className="auth-card">
          <div className="auth-card__header">
            <span className="icon-disc auth-card__icon">{icon ?? <Emblem size={44} />}</span>
            <h1 id={titleId} className="auth-card__title">
              {title}
            </h1>
            {subtitle && <p className="auth-card__subtitle">{subtitle}</p>}
          </div>
          {children}
          {footer && <div className="auth-card__footer">{footer}</div>}
        </div>
      </div>
    </section>
  );
}

/** "Check Your Email" after a link was mailed: `sent` says what was sent where, `actions` what the person may do meanwhile. */
export function EmailSentCard({ sent, actions, footer, testId }: { sent: ReactNode; actions: ReactNode; footer?: ReactNode; testId: string }) {
  return (
    <AuthCard title="Check Your Email" icon={<MailIcon size={40} />} testId={testId} subtitle={sent} footer={footer}>
      <div className="auth-actions">{actions}</div>
    </AuthCard>
  );
}
