import { useCallback } from 'react';
import { Messages } from '@edu/domain/common/messages';
import { notifyError } from '../../../lib/notify';
import { usePayEntry } from '../api/pay-entry';

/**
 * Starts the online payment of an entry and sends the payer to the provider's page; without a
 * confirmation url, or on any failure, says 'Произошёл сбой' (spec 01 §8).
 */
export function usePayNow() {
  const pay = usePayEntry();
  const { mutateAsync } = pay;
  const start = useCallback(
    async (entryId: number) => {
      try {
        const url = await mutateAsync(entryId);
        if (!url) throw new Error('no confirmation url');
        window.location.assign(url);
      } catch {
        notifyError(Messages.paymentFailed);
      }
    },
    [mutateAsync],
  );
  return { start, pending: pay.isPending, entryId: pay.isPending ? pay.variables : undefined };
}
