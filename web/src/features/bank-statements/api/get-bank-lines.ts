import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { bankLinesAnswer } from '@edu/domain/bank-statements/bank-statement';
import { api } from '../../../lib/api-client';

type Answer = z.output<typeof bankLinesAnswer>;
export type BankLineFilters = Record<string, string | number | undefined>;

/** GET /api/manager/bank-statement-lines: status (manual by default on the screen), q, sort, page, per_page. */
export function getBankLines(filters: BankLineFilters, signal?: AbortSignal): Promise<Answer> {
  return api.get<Answer>('/api/manager/bank-statement-lines', { query: { ...filters }, signal });
}

export const bankLinesQuery = (filters: BankLineFilters) =>
  queryOptions({
    queryKey: ['bank-statements', 'lines', filters],
    queryFn: ({ signal }) => getBankLines(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useBankLines(filters: BankLineFilters) {
  return useQuery(bankLinesQuery(filters));
}
