import { useQuery } from '@tanstack/react-query';
import type { Paginated } from '@edu/domain/common/pagination';
import type { Service } from '@edu/domain/services/service';
import { api } from '../../../lib/api-client';

/** GET /api/service?isPublication=1: the publication services an article is submitted to. */
export function usePublicationServices() {
  return useQuery({
    queryKey: ['services', 'list', { isPublication: 1, per_page: 100 }],
    queryFn: () => api.get<Paginated<Service>>('/api/service', { query: { isPublication: 1, page: 1, per_page: 100 } }).then((a) => a.data),
    staleTime: 60_000,
  });
}
