import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PublicationPrice, priceBody, priceDeletedAnswer, priceSavedAnswer, pricesAnswer } from '@edu/domain/publication-prices/publication-price';
import { api } from '../../../lib/api-client';

const KEY = ['publication-prices'] as const;

/** GET /api/publication-price: every price, by subtype then number of authors. */
export function getPrices(): Promise<PublicationPrice[]> {
  return api.get<z.output<typeof pricesAnswer>>('/api/publication-price').then((a) => a.data);
}

export function usePrices() {
  return useQuery(queryOptions({ queryKey: KEY, queryFn: getPrices }));
}

/** POST /api/publication-price (new) or PUT /api/publication-price/{id}. */
export function useSavePrice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: z.input<typeof priceBody> }) =>
      id === null
        ? api.post<z.output<typeof priceSavedAnswer>>('/api/publication-price', body)
        : api.put<z.output<typeof priceSavedAnswer>>(`/api/publication-price/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** DELETE /api/publication-price/{id}: refused while publications name the price. */
export function useDeletePrice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<z.output<typeof priceDeletedAnswer>>(`/api/publication-price/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
