import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Paginated } from '@edu/domain/common/pagination';
import type { Payment } from '@edu/domain/payments/payment';
import { api } from '../../../lib/api-client';

/** Filters of GET /api/payment (spec 03 §7); empty strings are left out of the query. */
export interface PaymentFilters {
  entry_number?: string;
  fio?: string;
  serviceType?: number;
  serviceTitle?: string;
  sum?: number;
  payType?: number;
  uuid?: string;
  /** A prefix typed with the mask 9999-99-99 99:99:99. */
  created_at?: string;
  /** Operators only: the payments of one user (a user always gets their own). */
  user_id?: number;
  page: number;
  per_page: number;
}

/** GET /api/payment: operators see every payment, a user sees their own. */
export function getPayments(filters: PaymentFilters, signal?: AbortSignal): Promise<Paginated<Payment>> {
  return api.get<Paginated<Payment>>('/api/payment', { query: { ...filters }, signal });
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
