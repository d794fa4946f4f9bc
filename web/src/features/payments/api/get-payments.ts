import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { paymentsAnswer } from '@edu/domain/payments/payment';
import { api } from '../../../lib/api-client';

/**
 * Query of GET /api/payment (spec 03 §7): entry_number, fio, serviceType, serviceTitle, sum,
 * payType, uuid, created_at (a prefix typed with the mask 9999-99-99 99:99:99), date_from and date_to
 * (dd.mm.yyyy, Moscow days), user_id (operators
 * only: one user's payments; a user always gets their own), page, per_page.
 */
export type PaymentFilters = Record<string, string | number | undefined>;

/** GET /api/payment: operators see every payment, a user sees their own; with the count and sum of what the filters choose. */
export function getPayments(filters: PaymentFilters, signal?: AbortSignal): Promise<z.output<typeof paymentsAnswer>> {
  return api.get<z.output<typeof paymentsAnswer>>('/api/payment', { query: { ...filters }, signal });
}

export const paymentsQuery = (filters: PaymentFilters) =>
  queryOptions({
    queryKey: ['payments', 'list', filters],
    queryFn: ({ signal }) => getPayments(filters, signal),
    placeholderData: keepPreviousData,
  });

export function usePayments(filters: PaymentFilters) {
  return useQuery(paymentsQuery(filters));
}
