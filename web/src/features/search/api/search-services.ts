import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Service, serviceSearchAnswer } from '@edu/domain/services/service';
import { api } from '../../../lib/api-client';

/** POST /api/service/search {keywords}: at most 10 services, the nearest date first. */
export async function searchServices(keywords: string): Promise<Service[]> {
  const answer = await api.post<z.output<typeof serviceSearchAnswer>>('/api/service/search', { keywords });
  return answer.data;
}

export const searchQuery = (keywords: string) =>
  queryOptions({ queryKey: ['services', 'search', keywords], queryFn: () => searchServices(keywords), placeholderData: keepPreviousData, staleTime: 30_000 });

export function useSearchServices(keywords: string) {
  return useQuery({ ...searchQuery(keywords), enabled: keywords.length > 0 });
}
