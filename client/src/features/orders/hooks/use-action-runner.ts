import { useCallback, useRef, useState } from 'react';
import type { PartyAction } from '@common/order-lifecycle.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import type { ActionBodies } from '../api/orders-api.ts';
import { runOrderAction } from '../stores/order-store.ts';

export type ActionRunner = ReturnType<typeof useActionRunner>;

/**
 * Sends moves one at a time. Each attempt the user makes gets its own Idempotency-Key; when an
 * attempt got no answer (network failure), trying the same move with the same details again
 * reuses its key, so the server applies it at most once.
 */
export function useActionRunner(orderId: number, onMoved?: () => void) {
  const [pending, setPending] = useState<PartyAction | null>(null);
  const [error, setError] = useState<{ action: PartyAction; message: string } | null>(null);
  const unanswered = useRef<{ action: PartyAction; body: string; key: string } | null>(null);
  const inFlight = useRef(false);

  const run = useCallback(
    async <A extends PartyAction>(action: A, body: ActionBodies[A]): Promise<boolean> => {
      if (inFlight.current) return false;
      const json = JSON.stringify(body);
      const held = unanswered.current;
      const key = held && held.action === action && held.body === json ? held.key : newIdempotencyKey();
      inFlight.current = true;
      setPending(action);
      setError(null);
      try {
        await runOrderAction(orderId, action, body, key);
        unanswered.current = null;
        onMoved?.();
        return true;
      } catch (err) {
        const answered = err instanceof ApiError && err.status !== 0;
        unanswered.current = answered ? null : { action, body: json, key };
        setError({ action, message: errorMessage(err) });
        return false;
      } finally {
        inFlight.current = false;
        setPending(null);
      }
    },
    [orderId, onMoved],
  );

  const clearError = useCallback(() => setError(null), []);
  return { run, pending, error, clearError };
}
