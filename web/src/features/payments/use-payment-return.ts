import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { CURRENT_USER_KEY } from '../../lib/current-user';
import { notifyError, notifyInfo, notifySuccess } from '../../lib/notify';
import { refreshCardTransaction } from './api/refresh-card-transaction';

/** Notices of the return from the payment provider. */
export const PaymentReturnMessages = {
  succeeded: 'Оплата прошла успешно!',
  canceled: 'Платёж отменён',
  processing: 'Платёж обрабатывается',
} as const;

/** Card transactions already asked about in this tab (a remount or Strict Mode must not ask twice). */
const handled = new Set<string>();

/**
 * The return from the payment provider: the browser comes back to /user/entry?payment=<cardTransactionId>.
 * Asks the server to refresh that payment once, reloads the current user, entries and payments, says how
 * it went and removes the parameter. Returns the status once known (null before, and when nothing to do).
 */
export function usePaymentReturn(): { checking: boolean; status: string | null } {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const id = params.get('payment');
  const [result, setResult] = useState<{ id: string; status: string } | null>(null);

  useEffect(() => {
    if (!id || !/^\d+$/.test(id) || handled.has(id)) return;
    handled.add(id);
    let status = 'pending';
    refreshCardTransaction(id)
      .then((answer) => {
        status = answer;
      })
      .catch(() => {
        // The provider or the server did not answer now; the webhook and the reconciliation job still will.
      })
      .finally(() => {
        void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
        void queryClient.invalidateQueries({ queryKey: ['entries'] });
        void queryClient.invalidateQueries({ queryKey: ['payments'] });
        if (status === 'succeeded') notifySuccess(PaymentReturnMessages.succeeded);
        else if (status === 'canceled') notifyError(PaymentReturnMessages.canceled);
        else notifyInfo(PaymentReturnMessages.processing);
        setResult({ id, status });
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.delete('payment');
            return next;
          },
          { replace: true },
        );
      });
  }, [id, queryClient, setParams]);

  const checking = Boolean(id && /^\d+$/.test(id) && result?.id !== id);
  return { checking, status: result?.status ?? null };
}
