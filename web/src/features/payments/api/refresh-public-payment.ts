import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { cardTransactionStatusAnswer } from '@edu/domain/payments/payment';
import { api } from '../../../lib/api-client';

/** POST /api/yookassa-entry/{id}/refresh: what became of a payment of the public form (its status only). */
export function refreshPublicPayment(id: string): Promise<string> {
  return api
    .post<z.output<typeof cardTransactionStatusAnswer>>(`/api/yookassa-entry/${encodeURIComponent(id)}/refresh`, undefined, { protectedCall: false })
    .then((r) => r.data.status);
}

const OPEN = new Set(['pending', 'waiting_for_capture']);

/** Asks again every 3 seconds while the provider has not decided. */
export const publicPaymentQuery = (id: string) =>
  queryOptions({
    queryKey: ['public-payment', id],
    queryFn: () => refreshPublicPayment(id),
    retry: false,
    refetchInterval: (query) => (query.state.data && OPEN.has(query.state.data) ? 3000 : false),
  });

export function usePublicPayment(id: string) {
  return useQuery(publicPaymentQuery(id));
}
