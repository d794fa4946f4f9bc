import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The server's answer: the provider page to send the payer to, or a mark-paid-at-once. */
export interface PayAnswer {
  id?: string | number;
  status?: number;
  immediate?: boolean;
  confirmation?: { confirmation_url?: string | null } | null;
}

/**
 * POST /api/entry/{id}/pay: the one place the cabinet starts a payment (entries, packages, the
 * dashboard). Answers the confirmation url (null when the provider gave none) or immediate.
 */
export async function payEntry(input: number | { entryId: number; payType?: number }): Promise<{ url: string | null; immediate: boolean }> {
  const { entryId, payType } = typeof input === 'number' ? { entryId: input, payType: undefined } : input;
  // Operators name the pay type (Банк, Офис, Другое) when marking an entry paid.
  const answer = await api.post<PayAnswer>(`/api/entry/${entryId}/pay`, payType === undefined ? undefined : { pay_type: payType });
  return { url: answer?.confirmation?.confirmation_url || null, immediate: Boolean(answer?.immediate) };
}

export function usePayEntry() {
  return useMutation({ mutationFn: payEntry });
}
