import { useCallback, useState } from 'react';
import type { PartyAction } from '@common/order-lifecycle.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { RetrySafeSender } from '../../../lib/retry-key.ts';
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
  const [sender] = useState(() => new RetrySafeSender<string>());

  const run = useCallback(
    async <A extends PartyAction>(action: A, body: ActionBodies[A]): Promise<boolean> => {
      if (sender.busy) return false;
      setPending(action);
      setError(null);
      try {
        await sender.send(`${action} ${JSON.stringify(body)}`, (key) => runOrderAction(orderId, action, body, key));
        onMoved?.();
        return true;
      } catch (err) {
        setError({ action, message: errorMessage(err) });
        return false;
      } finally {
        setPending(null);
      }
    },
    [orderId, onMoved, sender],
  );

  const clearError = useCallback(() => setError(null), []);
  return { run, pending, error, clearError };
}
