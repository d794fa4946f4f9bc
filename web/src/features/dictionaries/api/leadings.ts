import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { messageAnswer } from '@edu/domain/common/answers';
import type { leadingBody, leadingSavedAnswer, leadingsAnswer } from '@edu/domain/dictionaries/dictionary-saves';
import { api } from '../../../lib/api-client';

/** GET /api/leading: page, per_page (100 by default), fio. */
export function getLeadings(query: Record<string, string>, signal?: AbortSignal): Promise<z.output<typeof leadingsAnswer>> {
  return api.get<z.output<typeof leadingsAnswer>>('/api/leading', { query, signal });
}

export const leadingsQuery = (query: Record<string, string>) =>
  queryOptions({ queryKey: ['leadings', query], queryFn: ({ signal }) => getLeadings(query, signal), placeholderData: keepPreviousData });

export function useLeadings(query: Record<string, string>) {
  return useQuery(leadingsQuery(query));
}

export function useSaveLeading() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: z.input<typeof leadingBody> }): Promise<z.output<typeof leadingSavedAnswer>> =>
      id === null ? api.post('/api/leading', body) : api.put(`/api/leading/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['leadings'] }),
  });
}

export function useDeleteLeading() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number): Promise<z.output<typeof messageAnswer>> => api.delete(`/api/leading/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['leadings'] }),
  });
}
