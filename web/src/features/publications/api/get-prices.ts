import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { pricesAnswer } from '@edu/domain/publication-prices/publication-price';
import { api } from '../../../lib/api-client';
import type { PublicationPrice } from './types';

/** GET /api/publication-price?dict_service_subtype_id=: the price per number of authors. */
export function getPrices(subtypeId: number): Promise<PublicationPrice[]> {
  return api.get<z.output<typeof pricesAnswer>>('/api/publication-price', { query: { dict_service_subtype_id: subtypeId, per_page: 100 } }).then((a) => a.data);
}

export function usePrices(subtypeId: number | null) {
  return useQuery({
    queryKey: ['publication-prices', subtypeId],
    queryFn: () => getPrices(subtypeId as number),
    enabled: subtypeId !== null,
    staleTime: 60_000,
    retry: false,
  });
}

/** The price for a number of authors: the row for that count, else the largest count below it. */
export function priceFor(prices: PublicationPrice[] | undefined, authors: number): PublicationPrice | null {
  const sorted = [...(prices ?? [])].sort((a, b) => a.authors_num - b.authors_num);
  return sorted.find((p) => p.authors_num === authors) ?? sorted.filter((p) => p.authors_num <= authors).pop() ?? null;
}

/** At most authors_num minus 1 extra authors (spec 03 §5): the largest count priced. */
export function maxAuthors(prices: PublicationPrice[] | undefined): number {
  return Math.max(1, ...(prices ?? []).map((p) => p.authors_num));
}
