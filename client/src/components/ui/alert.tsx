import type { ReactNode } from 'react';
import { AlertIcon, CheckIcon, InfoIcon } from './icons.tsx';
import './alert.css';

export type AlertTone = 'error' | 'info' | 'success';

const ICONS = { error: AlertIcon, info: InfoIcon, success: CheckIcon } as const;

/**
 * An inline message box. Errors are `role="alert"` (announced at once); information and
 * success are `role="status"` (announced politely) and never use the error colours.
 */
export function Alert({
  tone,
  title,
  children,
  className,
  testId,
}: {
  tone: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  testId?: string;
}) {
  const Icon = ICONS[tone];
  return (
    <div
      className={`alert alert--${tone} tone-${tone}${className ? ` ${className}` : ''}`}
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
    >
      <Icon size={20} className="alert__icon" />
      <div className="alert__body">
        {title && <p className="alert__title">{title}</p>}
        {children}
      </div>
    </div>
  );
}
