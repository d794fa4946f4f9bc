import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { payableEntriesAnswer } from '@edu/domain/bank-statements/bank-statement';
import { api } from '../../../lib/api-client';

type Answer = z.output<typeof payableEntriesAnswer>;

/** GET /api/manager/bank-statement-lines/entries?q=: unpaid entries by number or client, for assigning a line. */
export function usePayableEntries(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['bank-statements', 'payable', q],
    enabled,
    queryFn: ({ signal }) => api.get<Answer>('/api/manager/bank-statement-lines/entries', { query: { q }, signal }),
    placeholderData: keepPreviousData,
  });
}
