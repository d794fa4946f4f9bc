import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { servicesAnswer } from '@edu/domain/services/service';
import { api } from '../../../lib/api-client';

export interface ServiceFilters {
  dict_type_id?: number;
  dict_subtype_id?: number;
  /** Work profile ids, sent as '1,2'. */
  profile?: number[];
  /** Leading ids, sent as '1,2'. */
  leading?: number[];
  /** 0: no publication services (they are applied for with the article, not as ordinary entries). */
  isPublication?: 0 | 1;
  /** 1 past, 0 upcoming, undefined all. */
  past?: 0 | 1;
  title?: string;
  page: number;
  per_page: number;
}

/** GET /api/service: the visible catalogue, filtered and paged. */
export function getServices(filters: ServiceFilters): Promise<z.output<typeof servicesAnswer>> {
  return api.get<z.output<typeof servicesAnswer>>('/api/service', {
    query: {
      ...filters,
      profile: filters.profile?.length ? filters.profile.join(',') : undefined,
      leading: filters.leading?.length ? filters.leading.join(',') : undefined,
      title: filters.title?.trim() || undefined,
    },
  });
}

export const servicesQuery = (filters: ServiceFilters) =>
  queryOptions({ queryKey: ['services', 'list', filters], queryFn: () => getServices(filters), placeholderData: keepPreviousData });

export function useServices(filters: ServiceFilters, enabled = true) {
  return useQuery({ ...servicesQuery(filters), enabled });
}
