import { useState } from 'react';
import type { EditFilesSectionProps } from '../components/edit-section-parts.tsx';

/**
 * One change at a time to a listing's photos or documents: `busy` while it is out, the refusal
 * (if any) for the section to show, and the listing read again after either way, so the section
 * shows what the server kept.
 */
export function useListingChange({ refresh, onRefused }: Pick<EditFilesSectionProps, 'refresh' | 'onRefused'>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(request: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await request();
    } catch (err) {
      onRefused(err, setError);
    } finally {
      await refresh();
      setBusy(false);
    }
  }

  return { busy, error, run };
}
