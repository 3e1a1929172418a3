import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Temporary screen body for routes whose screen is not built yet. */
export function ComingSoon({ name, children }: { name: string; children?: ReactNode }) {
  useDocumentTitle(name);
  return (
    <section className="container page coming-soon" aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title" className="page-title">
        {name}
      </h1>
      <p className="muted">{name} — coming soon</p>
      {children}
    </section>
  );
}
