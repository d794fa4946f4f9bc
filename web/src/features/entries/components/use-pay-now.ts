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
    async (entryId: number) => {
      try {
        const answer = await mutateAsync(entryId);
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
        notifyError(err instanceof ApiError && err.status === 422 ? err.message : Messages.paymentFailed);
      }
    },
    [mutateAsync, queryClient],
  );
  return { start, pending: pay.isPending, entryId: pay.isPending ? pay.variables : undefined };
}
