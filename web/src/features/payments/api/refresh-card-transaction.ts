import type { z } from 'zod';
import type { cardTransactionStatusAnswer } from '@edu/domain/payments/payment';
import { api } from '../../../lib/api-client';

/**
 * POST /api/yookassa/{cardTransactionId}/refresh: the server asks the provider now instead of
 * waiting for the webhook, and answers the transaction's status.
 */
export async function refreshCardTransaction(id: number | string): Promise<string> {
  const answer = await api.post<z.output<typeof cardTransactionStatusAnswer>>(`/api/yookassa/${encodeURIComponent(String(id))}/refresh`);
  return answer.data.status;
}
