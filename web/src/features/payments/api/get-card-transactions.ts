import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { cardTransactionsAnswer } from '@edu/domain/payments/payment';
import { api } from '../../../lib/api-client';

/**
 * Query of GET /api/yookassa (spec 03 §7), as kept in the URL: status, uuid, entry_number, fio,
 * isWithoutUser (1: made without a user, on the public form), serviceType, serviceTitle, sum, page, per_page.
 */
export type CardTransactionFilters = Record<string, string | number | undefined>;

/** GET /api/yookassa: card-provider transactions, operators only. */
export function getCardTransactions(filters: CardTransactionFilters, signal?: AbortSignal): Promise<z.output<typeof cardTransactionsAnswer>> {
  return api.get<z.output<typeof cardTransactionsAnswer>>('/api/yookassa', { query: { ...filters }, signal });
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
