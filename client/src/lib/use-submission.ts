import { useState } from 'react';
import { errorMessage } from './api-client.ts';

/**
 * A form's request: `submit(send)` runs `send` unless one is already out, and a failure's
 * message becomes `error` (cleared when the next one starts). `setError` shows a problem found
 * before sending.
 */
export function useSubmission() {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(send: () => Promise<void>): Promise<void> {
    if (submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      await send();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  }

  return { submitting, error, setError, submit };
}
