import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Paginated } from '@edu/domain/common/pagination';
import type { CardTransaction } from '@edu/domain/payments/payment';
import { api } from '../../../lib/api-client';

export type ProviderStatus = 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';

/** Filters of GET /api/yookassa (spec 03 §7). */
export interface CardTransactionFilters {
  status?: ProviderStatus;
  uuid?: string;
  entry_number?: string;
  fio?: string;
  /** Only transactions made without a user (the public form). */
  isWithoutUser?: boolean;
  serviceType?: number;
  serviceTitle?: string;
  sum?: number;
  page: number;
  per_page: number;
}

/** GET /api/yookassa: card-provider transactions, operators only. */
export function getCardTransactions(filters: CardTransactionFilters, signal?: AbortSignal): Promise<Paginated<CardTransaction>> {
  const { isWithoutUser, ...rest } = filters;
  return api.get<Paginated<CardTransaction>>('/api/yookassa', { query: { ...rest, isWithoutUser: isWithoutUser ? 1 : undefined }, signal });
}

export const cardTransactionsQuery = (filters: CardTransactionFilters) =>
  queryOptions({
    queryKey: ['payments', 'card-transactions', filters],
    queryFn: ({ signal }) => getCardTransactions(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useCardTransactions(filters: CardTransactionFilters) {
  return useQuery(cardTransactionsQuery(filters));
}
