import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { serviceOverviewAnswer } from '@edu/domain/services/service-overview';
import { api } from '../../../lib/api-client';

/** The query of GET /api/service/overview as the address bar holds it (serviceOverviewQuery in domain/). */
export type ServiceOverviewFilters = Record<string, string | number | undefined>;

/** GET /api/service/overview: «Все услуги», every service with its seats and sales (operators). */
export function getServiceOverview(filters: ServiceOverviewFilters, signal?: AbortSignal): Promise<z.output<typeof serviceOverviewAnswer>> {
  return api.get<z.output<typeof serviceOverviewAnswer>>('/api/service/overview', { query: { ...filters }, signal });
}

// Under 'services': saving or deleting a service and changing entries refresh it (they invalidate ['services']).
export const serviceOverviewQuery = (filters: ServiceOverviewFilters) =>
  queryOptions({
    queryKey: ['services', 'overview', filters],
    queryFn: ({ signal }) => getServiceOverview(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useServiceOverview(filters: ServiceOverviewFilters) {
  return useQuery(serviceOverviewQuery(filters));
}
