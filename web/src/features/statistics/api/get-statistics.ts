import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MonthlyFigures } from '@edu/domain/statistics/statistics';
import { api } from '../../../lib/api-client';

/** The dashboard statistics by name (spec 02 §7), each GET /api/{name}/statistics. */
export type StatisticName = 'entry' | 'user' | 'payment' | 'publication';

export function getStatistic(name: StatisticName, signal?: AbortSignal): Promise<MonthlyFigures> {
  return api.get<MonthlyFigures>(`/api/${name}/statistics`, { signal });
}

export const statisticQuery = (name: StatisticName) =>
  queryOptions({ queryKey: ['statistics', name], queryFn: ({ signal }) => getStatistic(name, signal), staleTime: 60_000 });

export function useStatistic(name: StatisticName) {
  return useQuery(statisticQuery(name));
}

/** GET /api/payment/statistics/refunds: money refunded per month (the income figure is already net of it). */
export function useRefundStatistic() {
  return useQuery({
    queryKey: ['statistics', 'refunds'],
    queryFn: ({ signal }) => api.get<MonthlyFigures>('/api/payment/statistics/refunds', { signal }),
    staleTime: 60_000,
  });
}
