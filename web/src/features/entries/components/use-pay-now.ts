import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Messages } from '@edu/domain/common/messages';
import { ApiError } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/current-user';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { usePayEntry } from '../api/pay-entry';

/**
 * Pays an entry: sends the payer to the provider's page, or, when the server marked it paid at once
 * (operators, free entries), refreshes the lists and the current user. Without a confirmation url
 * or on a failure: 'Произошёл сбой' (spec 01 §8), or the server's own message for a refusal.
 */
export function usePayNow() {
  const pay = usePayEntry();
  const queryClient = useQueryClient();
  const { mutateAsync } = pay;
  const start = useCallback(
    async (entryId: number, payType?: number) => {
      try {
        const answer = await mutateAsync({ entryId, payType });
        if (answer.immediate) {
          notifySuccess('Заявка отмечена оплаченной');
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: ['entries'] }),
            queryClient.invalidateQueries({ queryKey: ['payments'] }),
            queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
          ]);
          return;
        }
        if (!answer.url) throw new Error('no confirmation url');
        window.location.assign(answer.url);
      } catch (err) {
        // The server's own Russian text for a refusal or an unavailable provider (a receipt problem is not a 'сбой').
        notifyError(err instanceof ApiError && (err.status === 422 || err.status === 503) && err.message ? err.message : Messages.paymentFailed);
      }
    },
    [mutateAsync, queryClient],
  );
  return { start, pending: pay.isPending, entryId: !pay.isPending ? undefined : typeof pay.variables === 'number' ? pay.variables : pay.variables?.entryId };
}
