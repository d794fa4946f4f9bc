import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PublicationPrice } from '@edu/domain/publication-prices/publication-price';
import { api } from '../../../lib/api-client';

const KEY = ['publication-prices'] as const;

/** GET /api/publication-price: every price, by subtype then number of authors. */
export function getPrices(): Promise<PublicationPrice[]> {
  return api.get<{ data: PublicationPrice[] }>('/api/publication-price').then((a) => a.data);
}

export function usePrices() {
  return useQuery(queryOptions({ queryKey: KEY, queryFn: getPrices }));
}

/** POST /api/publication-price (new) or PUT /api/publication-price/{id}. */
export function useSavePrice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Record<string, unknown> }): Promise<{ message: string }> =>
      id === null ? api.post('/api/publication-price', body) : api.put(`/api/publication-price/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** DELETE /api/publication-price/{id}: refused while publications name the price. */
export function useDeletePrice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number): Promise<{ message: string }> => api.delete(`/api/publication-price/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
