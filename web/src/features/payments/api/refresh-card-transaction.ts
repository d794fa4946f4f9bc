import { api } from '../../../lib/api-client';

/**
 * POST /api/yookassa/{cardTransactionId}/refresh: the server asks the provider now instead of
 * waiting for the webhook, and answers the transaction's status.
 */
export async function refreshCardTransaction(id: number | string): Promise<string> {
  const answer = await api.post<{ data: { status: string } }>(`/api/yookassa/${encodeURIComponent(String(id))}/refresh`);
  return answer.data.status;
}
