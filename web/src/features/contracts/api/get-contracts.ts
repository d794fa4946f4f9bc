import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { contractsAnswer } from '@edu/domain/contracts/contract';
import { api } from '../../../lib/api-client';

export interface ContractFilters {
  fio?: string;
  status?: number;
  archive?: boolean;
  /** true: with a signed scan (to check); false: still without one. */
  scan?: boolean;
  page: number;
  per_page: number;
}

/** GET /api/contract: fio, status, page, per_page; a client gets own contracts only. */
export function getContracts(filters: ContractFilters): Promise<z.output<typeof contractsAnswer>> {
  return api.get<z.output<typeof contractsAnswer>>('/api/contract', {
    query: {
      fio: filters.fio?.trim() || undefined,
      status: filters.status,
      archive: filters.archive ? 1 : undefined,
      scan: filters.scan === undefined ? undefined : filters.scan ? 1 : 0,
      page: filters.page,
      per_page: filters.per_page,
    },
  });
}

export const contractsQuery = (filters: ContractFilters) =>
  queryOptions({ queryKey: ['contracts', 'list', filters], queryFn: () => getContracts(filters), placeholderData: keepPreviousData });

export function useContracts(filters: ContractFilters) {
  return useQuery(contractsQuery(filters));
}
