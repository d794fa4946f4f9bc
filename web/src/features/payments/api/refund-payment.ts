import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RefundAnswer, RefundBody } from '@edu/domain/payments/payment';
import { api } from '../../../lib/api-client';

/** POST /api/payment/{id}/refund {sum, reason, key}: an operator refunds an online payment, whole or in part. */
export function refundPayment(id: number, body: RefundBody): Promise<RefundAnswer> {
  return api.post<RefundAnswer>(`/api/payment/${id}/refund`, body);
}

export function useRefundPayment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: RefundBody }) => refundPayment(id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['payments'] }),
  });
}
