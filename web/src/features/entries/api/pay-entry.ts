import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The payment provider's answer: the page to send the payer to. */
export interface PayAnswer {
  id?: string | number;
  confirmation?: { confirmation_url?: string | null } | null;
}

/**
 * POST /api/entry/{id}/pay: the one place the cabinet starts an online payment (entries, packages,
 * the dashboard). Answers the confirmation url, or null when the provider gave none.
 */
export async function payEntry(entryId: number): Promise<string | null> {
  const answer = await api.post<PayAnswer>(`/api/entry/${entryId}/pay`);
  return answer?.confirmation?.confirmation_url || null;
}

export function usePayEntry() {
  return useMutation({ mutationFn: payEntry });
}
