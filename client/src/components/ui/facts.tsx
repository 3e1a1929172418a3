import type { ReactNode } from 'react';

/** A list of labelled facts (`<dl>`); `className` gives its look. */
export function Facts({ className, children }: { className: string; children: ReactNode }) {
  return <dl className={className}>{children}</dl>;
}

/** One fact: its label and its value; `className` styles the pair, `valueClassName` and `testId` its value. */
export function Fact({
  label,
  className,
  valueClassName,
  testId,
  children,
}: {
  label: ReactNode;
  className?: string;
  valueClassName?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <dt>{label}</dt>
      <dd className={valueClassName} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
