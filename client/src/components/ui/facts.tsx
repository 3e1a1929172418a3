import type { ReactNode } from 'react';

/** A list of labelled facts (`<dl>`); `className` gives its look. */
export function Facts({ className, children }: { className: string; children: ReactNode }) {
  return <dl className={className}>{children}</dl>;
}

/** One fact: its label and its value. */
export function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
