import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { contractDataAnswer, ContractDataState } from '@edu/domain/documents/documents';
import { api } from '../../../lib/api-client';

/** GET /api/user/{id}/contract-data: the wizard's state, computed on the server. */
export function getContractData(userId: number): Promise<ContractDataState> {
  return api.get<z.output<typeof contractDataAnswer>>(`/api/user/${userId}/contract-data`).then((r) => r.data);
}

export const contractDataQuery = (userId: number) => queryOptions({ queryKey: ['contract-data', userId], queryFn: () => getContractData(userId) });

export function useContractData(userId: number) {
  return useQuery(contractDataQuery(userId));
}
